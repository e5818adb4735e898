import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { nginxMediaKeyInclude } from '../../src/server/cli/nginx-media-key.ts';
import { createMediaUrlSigner } from '../../src/server/security/media-url-signer.ts';

/*
 * What nginx checks of a signed audio URL without asking Canto: the `n` token its
 * secure_link module recomputes (MD5 over `$secure_link_expires$uri $canto_media_secret`, as
 * docs/deploy/nginx/canto.conf spells it). Here in Node against the signer, from the
 * include's text; tests/integration/nginx.test.ts runs it inside nginx.
 */
const secretKey = 'nginx-check-secret-key-nginx-check-secret-0123';
const secretOf = (key: string) =>
  /^set \$canto_media_secret ([0-9a-f]{64});$/m.exec(nginxMediaKeyInclude(key))![1]!;
const signer = createMediaUrlSigner({ secretKey, clock: { now: () => new Date() } });
const path1 = '/media/music/0b5c1f3e-2a4d-4c6b-9e8f-1a2b3c4d5e6f.mp3';

/** What secure_link_md5 computes for a request: base64url MD5 of `<e><uri> <secret>`. */
const nginxToken = (e: string, uri: string, secret: string) =>
  crypto.createHash('md5').update(`${e}${uri} ${secret}`).digest('base64url');
const params = (url: string) => new URL(url, 'http://x').searchParams;

describe('the media URL check nginx runs', () => {
  it('the include holds the secret nginx makes the token with, and no other key', () => {
    const include = nginxMediaKeyInclude(secretKey);
    expect(include.split('\n').filter((l) => l && !l.startsWith('#'))).toHaveLength(1);
    expect(include).not.toContain(secretKey);
    expect(secretOf(`${secretKey}x`)).not.toBe(secretOf(secretKey));
  });

  it('every URL Canto signs carries the token nginx computes for its path and expiry', () => {
    for (const p of [path1, '/media/podcasts/0b5c1f3e-2a4d-4c6b-9e8f-1a2b3c4d5e6f/17.m4a']) {
      const q = params(signer.sign(p));
      expect(q.get('n')).toBe(nginxToken(q.get('e')!, p, secretOf(secretKey)));
    }
  });

  it('the token is refused for another path, expiry, spelling of the expiry or secret', () => {
    const q = params(signer.sign(path1));
    const [e, n] = [q.get('e')!, q.get('n')!];
    const secret = secretOf(secretKey);
    const other = '/media/music/1b5c1f3e-2a4d-4c6b-9e8f-1a2b3c4d5e6f.mp3';
    expect(nginxToken(e, other, secret)).not.toBe(n);
    expect(nginxToken(String(Number(e) + 1), path1, secret)).not.toBe(n);
    expect(nginxToken(`0${e}`, path1, secret)).not.toBe(n);
    expect(nginxToken(e, path1, secretOf(`${secretKey}x`))).not.toBe(n);
  });
});
