import { describe, expect, it } from 'vitest';
import { firstEditProblem } from './song-edit-check.ts';

const MB = 1024 * 1024;
const ok = { title: 'Song', genre: 'Rock', cover: null };

describe('firstEditProblem', () => {
  it('accepts a title with a blank genre and an image cover', () => {
    expect(firstEditProblem(ok)).toBeNull();
    expect(firstEditProblem({ ...ok, genre: '  ' })).toBeNull();
    expect(firstEditProblem({ ...ok, cover: { size: MB, type: 'image/png' } })).toBeNull();
  });

  it('gives the spec messages, title first', () => {
    expect(firstEditProblem({ ...ok, title: '   ', genre: 'x'.repeat(101) })).toEqual({
      field: 'title',
      message: 'Title is required',
    });
    expect(firstEditProblem({ ...ok, title: 'x'.repeat(201) })).toEqual({
      field: 'title',
      message: 'Title must be less than 200 characters',
    });
    expect(firstEditProblem({ ...ok, genre: 'x'.repeat(101) })).toEqual({
      field: 'genre',
      message: 'Genre must be less than 100 characters',
    });
    expect(firstEditProblem({ ...ok, cover: { size: 5 * MB + 1, type: 'image/png' } })).toEqual({
      field: 'cover',
      message: 'Cover art must be less than 5MB',
    });
    expect(firstEditProblem({ ...ok, cover: { size: 10, type: 'audio/mpeg' } })?.message).toBe(
      'Cover art validation failed. Please ensure you are uploading a valid image file.',
    );
  });
});

describe('firstEditProblem for lyrics', () => {
  it("checks LRC times against the song's duration, naming the line", () => {
    expect(
      firstEditProblem({ ...ok, lyrics: '[00:01.00]a\n[00:09.50]b', duration: 10 }),
    ).toBeNull();
    expect(firstEditProblem({ ...ok, lyrics: '[00:01.00]a\n[00:10.50]b', duration: 10 })).toEqual({
      field: 'lyrics',
      message: 'Lyrics line 2: 00:10.50 is past the end of the song (00:10.00)',
    });
    expect(firstEditProblem({ ...ok, lyrics: '<div>hi</div>' })?.field).toBe('lyrics');
    expect(firstEditProblem({ ...ok, lyrics: '' })).toBeNull();
  });
});
