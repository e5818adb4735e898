import { describe, expect, it } from 'vitest';
import { podcastMessages } from '@/core/validation/podcast.rules.ts';
import { firstEpisodeProblem, firstShowProblem } from './podcast-form-checks.ts';

const MB = 1024 * 1024;
const wav = { size: 2 * MB, type: 'audio/wav' };
const episode = {
  podcastId: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
  title: 'Pilot',
  description: '',
  audio: wav,
  episodeNumber: '1',
};
const show = {
  title: 'Night Signals',
  description: '',
  language: 'en',
  category: 'Music',
  cover: null,
};

describe('episode form checks (spec §5, in its order)', () => {
  it('a complete form passes', () => {
    expect(firstEpisodeProblem(episode)).toBeNull();
    expect(firstEpisodeProblem({ ...episode, episodeNumber: ' 12 ' })).toBeNull();
  });

  it('each rule with its message, the first broken one first', () => {
    const problem = (over: Partial<typeof episode>) =>
      firstEpisodeProblem({ ...episode, ...over })?.message;
    expect(problem({ podcastId: '', title: '', audio: null as never })).toBe(
      podcastMessages.podcastRequired,
    );
    expect(problem({ title: '   ', audio: null as never })).toBe(
      podcastMessages.episodeTitleRequired,
    );
    expect(problem({ title: 'x'.repeat(201) })).toBe('Title must be less than 200 characters');
    expect(problem({ audio: null as never })).toBe('Please upload an audio file');
    expect(problem({ audio: { size: MB, type: 'image/png' } })).toBe(
      'Please upload an audio file (MP3, WAV, M4A, etc.)',
    );
    expect(problem({ audio: { size: MB, type: '' } })).toBe(podcastMessages.audioType);
    expect(problem({ audio: { size: 100 * MB + 1, type: 'audio/mpeg' } })).toBe(
      'Audio file must be less than 100MB',
    );
    expect(problem({ audio: { size: 100 * MB, type: 'audio/mpeg' } })).toBeUndefined();
    for (const n of ['0', '1.5', 'x', '', '-1'])
      expect(problem({ episodeNumber: n }), n).toBe(podcastMessages.episodeNumber);
  });

  it('says which field is wrong', () => {
    expect(firstEpisodeProblem({ ...episode, episodeNumber: '0' })?.field).toBe('number');
    expect(firstEpisodeProblem({ ...episode, audio: null })?.field).toBe('audio');
  });
});

describe('show form checks', () => {
  it('title required and at most 200 characters', () => {
    expect(firstShowProblem(show)).toBeNull();
    expect(firstShowProblem({ ...show, title: '  ' })).toEqual({
      field: 'title',
      message: 'Please enter a podcast title',
    });
    expect(firstShowProblem({ ...show, title: 'x'.repeat(201) })).toEqual({
      field: 'title',
      message: 'Title must be less than 200 characters',
    });
    expect(firstShowProblem({ ...show, title: 'x'.repeat(200) })).toBeNull();
  });

  it('owner email: empty or an address', () => {
    expect(firstShowProblem({ ...show, ownerEmail: '' })).toBeNull();
    expect(firstShowProblem({ ...show, ownerEmail: ' me@show.test ' })).toBeNull();
    expect(firstShowProblem({ ...show, ownerEmail: 'me@' })).toEqual({
      field: 'ownerEmail',
      message: podcastMessages.ownerEmail,
    });
  });

  it('language, category and cover as the server reads them', () => {
    expect(firstShowProblem({ ...show, language: 'pt-BR' })).toBeNull();
    expect(firstShowProblem({ ...show, language: 'english!' })?.field).toBe('language');
    expect(firstShowProblem({ ...show, category: 'Cooking' })?.field).toBe('category');
    expect(firstShowProblem({ ...show, cover: { size: 1000, type: 'audio/wav' } })?.field).toBe(
      'cover',
    );
    expect(
      firstShowProblem({ ...show, cover: { size: 6 * 1024 * 1024, type: 'image/png' } })?.message,
    ).toBe('Cover art must be less than 5MB');
  });
});
