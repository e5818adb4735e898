// Canto's signed media URLs checked inside nginx (njs, Debian's libnginx-mod-http-js), so a
// player's Range requests never wait for Canto: docs/decisions/0010-signed-media-and-offload.md.
// The same rule as src/server/security/media-url-signer.ts: s = base64url(HMAC-SHA256(K,
// `<path>\n<e>`)), valid while e (Unix seconds) is in the future. K (hex) comes from
// $canto_media_key, which `npm run nginx-media-key` writes from SECRET_KEY.
// tests/unit/nginx-media-check.test.ts runs this file against the signer.
//
// Every step counts here (njs interprets it on each Range request): the location's regex has
// already checked the path's shape; a signature equal to Canto's is canonical, so it needs no
// pattern of its own; and `===` compares it, as nginx's own secure_link compares (memcmp) — a
// differing byte moves the time by far less than a network's jitter, while a loop over the
// characters cost more than the HMAC.
import crypto from 'crypto';

/**
 * The Cache-Control for a request whose URL is validly signed and unexpired (its max-age is
 * the URL's remaining life, as Canto sends), or '' for any other request: the site config
 * hands those to Canto, which answers with the reason.
 */
function cacheControl(r) {
  const path = r.uri;
  const raw = r.variables.request_uri;
  // The path as sent must be the one nginx serves the file by (nothing decoded or resolved).
  if (raw.charCodeAt(path.length) !== 63 || raw.slice(0, path.length) !== path) return '';
  const e = r.args.e;
  const s = r.args.s;
  if (typeof e !== 'string' || typeof s !== 'string' || s.length !== 43) return '';
  const key = Buffer.from(r.variables.canto_media_key, 'hex');
  if (key.length !== 32) return '';
  if (
    crypto
      .createHmac('sha256', key)
      .update(path + '\n' + e)
      .digest('base64url') !== s
  )
    return '';
  // Canto signs canonical decimals only, so a signed e parses as written.
  const left = Number(e) - Math.floor(Date.now() / 1000);
  return left > 0 ? 'public, max-age=' + left + ', immutable' : '';
}

export default { cacheControl };
