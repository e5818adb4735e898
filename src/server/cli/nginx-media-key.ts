import { pathToFileURL } from 'node:url';
import { EnvError, parseEnv } from '../env.ts';
import { mediaUrlProxySecret } from '../security/media-url-signer.ts';
import { resolveSecretKey } from '../security/secrets.ts';

/*
 * `npm run nginx-media-key > /etc/nginx/canto/media-key.conf`: the include the nginx site
 * config (docs/deploy/nginx/canto.conf) needs to check signed media URLs itself. It holds
 * the key derived from SECRET_KEY for media URLs only, never SECRET_KEY: run it again and
 * reload nginx whenever SECRET_KEY changes.
 */

/** The include's text for a SECRET_KEY: the secret nginx's secure_link check appends, in hex. */
export function nginxMediaKeyInclude(secretKey: string): string {
  return [
    '# Canto media-URL secret (HKDF of SECRET_KEY): written by `npm run nginx-media-key`.',
    '# Keep it readable by root only; regenerate when SECRET_KEY changes.',
    `set $canto_media_secret ${mediaUrlProxySecret(secretKey)};`,
    '',
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  try {
    const env = parseEnv(process.env);
    process.stdout.write(nginxMediaKeyInclude(resolveSecretKey(env.secretKey, env.dataDir)));
  } catch (error) {
    console.error(error instanceof EnvError || error instanceof Error ? error.message : error);
    process.exit(1);
  }
}
