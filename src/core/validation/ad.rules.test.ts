import { describe, expect, it } from 'vitest';
import { adFormProblem, adMessages, isAdTargetUrl } from './ad.rules.ts';

describe('ad rules', () => {
  it('take http and https addresses with a host, nothing else', () => {
    for (const ok of [
      'https://shop.example/',
      'http://shop.example:8080/a?b=c#d',
      'https://xn--bcher-kva.example',
    ])
      expect(isAdTargetUrl(ok), ok).toBe(true);
    for (const bad of [
      'javascript:alert(1)',
      'data:text/html,hi',
      'ftp://files.example/',
      'mailto:a@b.example',
      '//shop.example/',
      'shop.example',
      'https://user:pw@shop.example/',
      'https://bank.example@evil.example/',
      'https://',
    ])
      expect(isAdTargetUrl(bad), bad).toBe(false);
  });

  it('name the first field of a form to fix, as the server would', () => {
    const form = { title: 'Sale', description: '', targetUrl: '', duration: '' };
    expect(adFormProblem(form)).toBeNull();
    expect(adFormProblem({ ...form, title: '  ' })).toEqual({
      field: 'title',
      message: adMessages.titleRequired,
    });
    expect(adFormProblem({ ...form, duration: '0' })?.message).toBe(adMessages.duration);
    expect(adFormProblem({ ...form, duration: ' 30 ' })).toBeNull();
    expect(adFormProblem({ ...form, targetUrl: 'ftp://x.example' })).toEqual({
      field: 'target_url',
      message: adMessages.targetUrl,
    });
    expect(adFormProblem({ ...form, description: 'd'.repeat(501) })?.field).toBe('description');
  });
});
