import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { nginxMediaKeyInclude } from '../../src/server/cli/nginx-media-key.ts';
import { createMediaUrlSigner } from '../../src/server/security/media-url-signer.ts';

/*
 * docs/deploy/nginx/canto-media.js, the njs check nginx runs on every audio request, against
 * Canto's signer: the same URLs pass and fail. Run here in Node with a stand-in for njs's
 * request object (`crypto`, `Buffer` and the regexps behave alike in both);
 * tests/integration/nginx.test.ts runs it inside nginx.
 */
type Check = { cacheControl(r: unknown): string };
const check = (
  (await import(pathToFileURL(path.resolve('docs/deploy/nginx/canto-media.js')).href)) as {
    default: Check;
  }
).default;

const secretKey = 'njs-check-secret-key-njs-check-secret-key-0123';
const keyHex = /js_var \$canto_media_key ([0-9a-f]{64});/.exec(
  nginxMediaKeyInclude(secretKey),
)![1]!;
const signer = createMediaUrlSigner({ secretKey, clock: { now: () => new Date() } });
const path1 = '/media/music/0b5c1f3e-2a4d-4c6b-9e8f-1a2b3c4d5e6f.mp3';

/** What nginx hands the function for a request line (uri: the decoded, normalized path). */
function request(requestUri: string, uri?: string, key = keyHex) {
  const url = new URL(requestUri, 'http://x');
  const args: Record<string, string | string[]> = {};
  for (const [k, v] of url.searchParams) {
    const had = args[k];
    args[k] = had === undefined ? v : ([] as string[]).concat(had, v);
  }
  return {
    uri: uri ?? decodeURIComponent(url.pathname),
    args,
    variables: { request_uri: requestUri, canto_media_key: key },
  };
}

describe('the njs media check (docs/deploy/nginx/canto-media.js)', () => {
  it('accepts what Canto signs, with Canto’s Cache-Control', () => {
    const url = signer.sign(path1);
    const e = Number(new URL(url, 'http://x').searchParams.get('e'));
    const left = e - Math.floor(Date.now() / 1000);
    expect(check.cacheControl(request(url))).toBe(`public, max-age=${left}, immutable`);
    const owned = signer.sign(
      '/media/podcasts/0b5c1f3e-2a4d-4c6b-9e8f-1a2b3c4d5e6f/1700000000.m4a',
    );
    expect(check.cacheControl(request(owned))).toMatch(/^public, max-age=\d+, immutable$/);
  });

  it('refuses a bare, tampered, swapped, expired or otherwise odd URL', () => {
    const url = signer.sign(path1);
    const q = new URL(url, 'http://x').searchParams;
    const e = q.get('e')!;
    const s = q.get('s')!;
    const flip = (c: string) => (c === 'A' ? 'B' : 'A');
    const nowS = Math.floor(Date.now() / 1000);
    const other = '/media/music/1b5c1f3e-2a4d-4c6b-9e8f-1a2b3c4d5e6f.mp3';
    const cases: Array<[string, string?]> = [
      [path1],
      [`${path1}?e=${e}`],
      [`${path1}?s=${s}`],
      [`${path1}?e=${e}&s=${flip(s[0]!)}${s.slice(1)}`],
      // The spare bits of the last character: another spelling of the same bytes.
      [`${path1}?e=${e}&s=${s.slice(0, 42)}${s[42] === 'A' ? 'B' : 'A'}`],
      [`${other}?e=${e}&s=${s}`],
      [`${path1}?e=${Number(e) + 1}&s=${s}`],
      [`${path1}?e=0${e}&s=${s}`],
      [`${path1}?e=${e}&s=${s}&s=${s}`],
      [`${path1}?e=${e}&e=${e}&s=${s}`],
      [`${path1}?e=${e}&s=${s}=`],
      [`${path1}?e=${e}&s=${s.slice(0, 42)}`],
      [`${path1}?e=${e}&s=`],
      [`${path1}?e=&s=${s}`],
      // Signed for the path, asked under another spelling that nginx normalizes to it.
      [`/media/cover-art/../music/${path1.split('/').pop()}?e=${e}&s=${s}`, path1],
      [`/media/music/%30${path1.slice(14)}?e=${e}&s=${s}`, path1],
    ];
    for (const [u, uri] of cases) expect(check.cacheControl(request(u, uri)), u).toBe('');

    // Expired: a URL whose e has passed, signed correctly.
    const past = createMediaUrlSigner({
      secretKey,
      clock: { now: () => new Date((nowS - 13 * 3600) * 1000) },
    }).sign(path1);
    expect(check.cacheControl(request(past))).toBe('');
    const justNow = `${path1}?e=${nowS}&s=${signer.signatureOf(path1, nowS)}`;
    expect(check.cacheControl(request(justNow))).toBe('');
    const nextSecond = `${path1}?e=${nowS + 2}&s=${signer.signatureOf(path1, nowS + 2)}`;
    expect(check.cacheControl(request(nextSecond))).not.toBe('');

    // Another key (a SECRET_KEY that changed) or none at all.
    const otherKey = /([0-9a-f]{64})/.exec(nginxMediaKeyInclude(`${secretKey}x`))![1]!;
    expect(check.cacheControl(request(url, undefined, otherKey))).toBe('');
    expect(check.cacheControl(request(url, undefined, ''))).toBe('');
  });
});
