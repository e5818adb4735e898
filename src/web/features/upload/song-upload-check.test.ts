import { describe, expect, it } from 'vitest';
import { firstUploadProblem } from './song-upload-check.ts';

const MB = 1024 * 1024;
const audio = { size: 3 * MB, type: 'audio/mpeg' };
const ok = { file: audio, cover: null, title: 'Song', genre: 'Rock' };

describe('firstUploadProblem', () => {
  it('accepts a complete form, and a blank title (the server derives one)', () => {
    expect(firstUploadProblem(ok)).toBeNull();
    expect(firstUploadProblem({ ...ok, title: '  ', genre: '' })).toBeNull();
  });

  it('gives the spec messages in the spec order', () => {
    expect(firstUploadProblem({ ...ok, file: null, title: 'x'.repeat(201) })).toBe(
      'Please select a music file to upload',
    );
    expect(firstUploadProblem({ ...ok, file: { ...audio, size: 100 * MB + 1 } })).toBe(
      'Audio file must be less than 100MB',
    );
    expect(firstUploadProblem({ ...ok, cover: { size: 5 * MB + 1, type: 'image/png' } })).toBe(
      'Cover art must be less than 5MB',
    );
    expect(firstUploadProblem({ ...ok, title: 'x'.repeat(201) })).toBe(
      'Title must be less than 200 characters',
    );
    expect(firstUploadProblem({ ...ok, genre: 'x'.repeat(101) })).toBe(
      'Genre must be less than 100 characters',
    );
  });

  it('refuses a file whose known type is plainly not audio or not an image', () => {
    expect(firstUploadProblem({ ...ok, file: { size: 10, type: 'text/plain' } })).toBe(
      'Music file validation failed. Please ensure you are uploading a valid audio file.',
    );
    expect(firstUploadProblem({ ...ok, cover: { size: 10, type: 'application/pdf' } })).toBe(
      'Cover art validation failed. Please ensure you are uploading a valid image file.',
    );
    // An unknown type is the server's to judge by content.
    expect(firstUploadProblem({ ...ok, file: { size: 10, type: '' } })).toBeNull();
  });
});

describe('firstUploadProblem for lyrics', () => {
  it('refuses what the server refuses, after the spec fields', () => {
    expect(firstUploadProblem({ ...ok, lyrics: 'plain words' })).toBeNull();
    expect(firstUploadProblem({ ...ok, lyrics: '[00:05.00]b\n[00:01.00]a' })).toBe(
      'Lyrics line 2: 00:01.00 comes before 00:05.00 on line 1',
    );
    expect(firstUploadProblem({ ...ok, file: null, lyrics: '<b>x</b>' })).toBe(
      'Please select a music file to upload',
    );
  });
});
