import { describe, expect, it } from 'vitest';
import { checkPlaylistForm } from './playlist-form-check.ts';
import { moveItem } from './playlist-order.ts';

const ok = { title: 'Road trip', description: '', isPublic: true };

describe('checkPlaylistForm', () => {
  it('sends the trimmed title, leaves a blank description out and keeps the public choice', () => {
    expect(checkPlaylistForm({ ...ok, title: '  Road trip  ', description: '   ' })).toEqual({
      body: { title: 'Road trip', is_public: true },
    });
    expect(checkPlaylistForm({ ...ok, description: ' For the drive ', isPublic: false })).toEqual({
      body: { title: 'Road trip', description: 'For the drive', is_public: false },
    });
  });

  it('gives the spec messages per field', () => {
    expect(checkPlaylistForm({ ...ok, title: '   ' })).toEqual({
      errors: { title: 'Title is required' },
    });
    // 100 is allowed, 101 is not (after trimming).
    expect(checkPlaylistForm({ ...ok, title: ` ${'x'.repeat(100)} ` }).errors).toBeUndefined();
    expect(checkPlaylistForm({ ...ok, title: 'x'.repeat(101) })).toEqual({
      errors: { title: 'Title must be less than 100 characters' },
    });
    expect(checkPlaylistForm({ ...ok, description: 'x'.repeat(500) }).errors).toBeUndefined();
    expect(checkPlaylistForm({ ...ok, title: '', description: 'x'.repeat(501) })).toEqual({
      errors: {
        title: 'Title is required',
        description: 'Description must be less than 500 characters',
      },
    });
  });
});

describe('moveItem', () => {
  it('takes the item out and puts it in at the target index, as the server does', () => {
    expect(moveItem(['a', 'b', 'c'], 2, 0)).toEqual(['c', 'a', 'b']);
    expect(moveItem(['a', 'b', 'c'], 0, 2)).toEqual(['b', 'c', 'a']);
    expect(moveItem(['a', 'b', 'c'], 0, 9)).toEqual(['b', 'c', 'a']);
    const items = ['a', 'b'];
    expect(moveItem(items, 1, 0)).toEqual(['b', 'a']);
    expect(items).toEqual(['a', 'b']);
  });
});
