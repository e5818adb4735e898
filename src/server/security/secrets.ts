import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * SECRET_KEY if given; otherwise one generated on first start and kept in DATA_DIR, so a
 * newcomer needs no setup and tokens survive restarts. Several processes need SECRET_KEY.
 */
export function resolveSecretKey(secretKey: string | undefined, dataDir: string): string {
  if (secretKey) return secretKey;
  const file = path.join(dataDir, 'secret.key');
  if (fs.existsSync(file)) return fs.readFileSync(file, 'utf8').trim();
  fs.mkdirSync(dataDir, { recursive: true });
  const generated = crypto.randomBytes(48).toString('base64url');
  fs.writeFileSync(file, generated, { mode: 0o600 });
  return generated;
}
