import { afterEach, describe, expect, it, vi } from 'vitest';
import { coverFromState, uploadWithCover } from './upload-cover.ts';

const OWN = '/media/cover-art/0b7f6a0e-3c4d-4e5f-8a9b-0c1d2e3f4a5b/1764400000000.png';

describe('a cover handed to the upload through the route state', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('is fetched into a File when it is one of Canto’s stored covers', async () => {
    const fetch = vi.fn(
      async () =>
        new Response(new Blob([new Uint8Array([137, 80, 78, 71])], { type: 'image/png' })),
    );
    vi.stubGlobal('fetch', fetch);
    const file = await coverFromState(uploadWithCover(OWN).state);
    expect(fetch).toHaveBeenCalledWith(
      OWN,
      expect.objectContaining({ credentials: 'same-origin' }),
    );
    expect(file).toBeInstanceOf(File);
    expect(file).toMatchObject({ name: 'ai-cover-1764400000000.png', type: 'image/png', size: 4 });
  });

  it.each([
    null,
    {},
    { coverUrl: 42 },
    { coverUrl: 'https://evil.example/cover.png' },
    { coverUrl: '//evil.example/media/cover-art/x.png' },
    { coverUrl: '/media/music/0b7f6a0e-3c4d-4e5f-8a9b-0c1d2e3f4a5b.wav' },
    { coverUrl: '/media/cover-art/../../api/auth/session' },
  ])('is ignored, unfetched, for %j', async (state) => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    expect(await coverFromState(state)).toBeNull();
    expect(fetch).not.toHaveBeenCalled();
  });

  it('fails plainly when the cover is gone', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('', { status: 404 })),
    );
    await expect(coverFromState({ coverUrl: OWN })).rejects.toThrow(
      'Cover art could not be loaded (404)',
    );
  });
});
