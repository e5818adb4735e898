import { describe, expect, it } from 'vitest';
import { adMessages } from '@/core/validation/ad.rules.ts';
import { firstAdProblem } from './ad-form-check.ts';

const form = {
  title: 'Spring Sale',
  description: '',
  image: null,
  audio: null,
  duration: '',
  targetUrl: 'https://shop.example/',
};

describe('the ad form checks', () => {
  it('let a good form through', () => {
    expect(firstAdProblem(form)).toBeNull();
    expect(
      firstAdProblem({
        ...form,
        image: { size: 1000, type: 'image/png' },
        audio: { size: 1000, type: 'audio/wav' },
        duration: '15',
      }),
    ).toBeNull();
  });

  it('name the first field to fix, in the order of the form', () => {
    expect(firstAdProblem({ ...form, title: '', duration: '0' })).toEqual({
      field: 'title',
      message: adMessages.titleRequired,
    });
    expect(firstAdProblem({ ...form, image: { size: 10, type: 'text/html' } })).toEqual({
      field: 'image',
      message: adMessages.imageType,
    });
    expect(
      firstAdProblem({ ...form, image: { size: 6 * 1024 * 1024, type: 'image/png' } })?.message,
    ).toBe(adMessages.imageTooLarge);
    expect(firstAdProblem({ ...form, audio: { size: 10, type: 'video/mp4' } })).toEqual({
      field: 'audio',
      message: adMessages.audioType,
    });
    expect(
      firstAdProblem({ ...form, audio: { size: 101 * 1024 * 1024, type: 'audio/mpeg' } })?.message,
    ).toBe(adMessages.audioTooLarge);
    expect(firstAdProblem({ ...form, duration: '601' })?.field).toBe('duration');
    expect(firstAdProblem({ ...form, targetUrl: 'javascript:alert(1)' })).toEqual({
      field: 'target_url',
      message: adMessages.targetUrl,
    });
  });
});
