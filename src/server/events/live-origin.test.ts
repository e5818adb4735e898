import { describe, expect, it } from 'vitest';
import { liveOrigins, originAllowed } from './live-origin.ts';

describe('live socket origins', () => {
  it("takes PUBLIC_URL's origin and refuses every other page", () => {
    const allowed = liveOrigins('https://music.example.org/');
    expect(originAllowed('https://music.example.org', allowed)).toBe(true);
    expect(originAllowed('http://music.example.org', allowed)).toBe(false);
    expect(originAllowed('https://music.example.org:8443', allowed)).toBe(false);
    expect(originAllowed('https://evil.example', allowed)).toBe(false);
    expect(originAllowed('https://music.example.org.evil.example', allowed)).toBe(false);
    expect(originAllowed('null', allowed)).toBe(false);
    expect(originAllowed('https://localhost', allowed)).toBe(false);
  });

  it('lets a client without an Origin through (no browser sends none)', () => {
    expect(originAllowed(undefined, liveOrigins('https://music.example.org'))).toBe(true);
  });

  it('treats the loopback names of a local PUBLIC_URL alike, on its port only', () => {
    const allowed = liveOrigins('http://localhost:3000', ['http://localhost:5173']);
    for (const origin of ['http://localhost:3000', 'http://127.0.0.1:3000', 'http://[::1]:3000'])
      expect(originAllowed(origin, allowed)).toBe(true);
    expect(originAllowed('http://localhost:5173', allowed)).toBe(true);
    expect(originAllowed('http://127.0.0.1:3001', allowed)).toBe(false);
    expect(originAllowed('https://localhost:3000', allowed)).toBe(false);
  });
});
