// The journeys' mailbox: serve.ts gives the server SMTP_URL pointing at a local SMTP server
// (smtp-server, as tests/integration/auth-smtp.test.ts uses) that writes each message to this
// port's mail directory, so a journey can open the link a person would find in their inbox.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** The mail directory of the journeys' server on `port` (one per port: runs may share a machine). */
export function mailDir(port: number): string {
  return path.join(os.tmpdir(), `canto-e2e-${port}-mail`);
}

/** Undoes quoted-printable (soft line breaks, =3D) in a message sent so, to read links back. */
function decoded(raw: string): string {
  if (!/^Content-Transfer-Encoding: quoted-printable\r?$/im.test(raw)) return raw;
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** Starts the sink on a free port; resolves to the SMTP_URL and a stop function. */
export async function startMailSink(port: number): Promise<{ url: string; stop: () => void }> {
  const dir = mailDir(port);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  let seq = 0;
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        seq += 1;
        const to = session.envelope.rcptTo.map((r) => r.address);
        const text = decoded(Buffer.concat(chunks).toString('utf8'));
        fs.writeFileSync(
          path.join(dir, `${Date.now()}-${seq}.json`),
          JSON.stringify({ to, raw: text }),
        );
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const smtpPort = (smtp.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${smtpPort}`,
    stop: () => {
      smtp.close(() => {});
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The newest link to `page` (e.g. '/reset-password') mailed to `to`, as a path with its query,
 * waiting up to `timeoutMs` for the message to arrive (mail goes out in the background).
 */
export async function mailedLink(
  port: number,
  to: string,
  page: string,
  timeoutMs = 10_000,
): Promise<string> {
  const dir = mailDir(port);
  const pattern = new RegExp(`https?://[^/\\s]+(${page}\\?token=[A-Za-z0-9_%-]+)`);
  const until = Date.now() + timeoutMs;
  for (;;) {
    const files = fs.existsSync(dir) ? fs.readdirSync(dir).sort().reverse() : [];
    for (const file of files) {
      const mail = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as {
        to: string[];
        raw: string;
      };
      const found = mail.to.includes(to) ? mail.raw.match(pattern) : null;
      if (found) return found[1]!;
    }
    if (Date.now() > until) throw new Error(`no mail to ${to} with a ${page} link`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
