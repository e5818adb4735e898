import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/server/app.ts';
import { createMailer } from '../../src/server/mail/mailer.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/test-db.ts';
import { TestClock, testEnv } from '../helpers/test-app.ts';
import { freshIp, signUp } from './auth-helpers.ts';

// One end-to-end proof that createMailer with SMTP_URL really sends: a local SMTP server on a
// random port receives the reset mail, and its link resets the password.
describe('password reset through a real SMTP server', () => {
  const received: Array<{ to: string[]; raw: string }> = [];
  let smtp: SMTPServer;
  let app: App;
  let db: TestDatabase;

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          // Undo quoted-printable (soft line breaks, =3D) so links can be read back; only in a
          // message sent so: a 7bit one's 'reset=' followed by a token starting with two hex
          // digits was decoded into one character (a 1-in-16 failure).
          const text = Buffer.concat(chunks).toString('utf8');
          const raw = /^Content-Transfer-Encoding: quoted-printable\r?$/im.test(text)
            ? text
                .replace(/=\r?\n/g, '')
                .replace(/=([0-9A-F]{2})/g, (_m, hex: string) =>
                  String.fromCharCode(parseInt(hex, 16)),
                )
            : text;
          received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
    const port = (smtp.server.address() as AddressInfo).port;
    const smtpUrl = `smtp://127.0.0.1:${port}`;
    db = await createTestDatabase('pglite');
    const env = testEnv({ SMTP_URL: smtpUrl }, db.dataDir);
    const log = {
      info() {},
      error: (...a: unknown[]) => console.error('MAILERR', ...a),
      warn() {},
      debug() {},
    } as never;
    ({ app } = await buildApp({
      env,
      database: db.database,
      clock: new TestClock(),
      logger: false,
      mailer: createMailer(smtpUrl, log),
    }));
    await app.ready();
  });

  afterAll(async () => {
    await app?.close();
    await db?.drop();
    await new Promise<void>((resolve) => smtp?.close(() => resolve()));
  });

  async function mailTo(address: string, marker: string) {
    for (let i = 0; i < 300; i++) {
      const found = received.find((m) => m.to.includes(address) && m.raw.includes(marker));
      if (found) return found;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(
      `no mail to ${address} containing ${marker}: ${JSON.stringify(received).slice(0, 3000)}`,
    );
  }

  it('delivers the verification and reset mails, and the reset link works', async () => {
    const { payload } = await signUp(app);
    await mailTo(payload.email, '/verify-email?token=');

    const res = await app.inject({
      method: 'POST',
      url: '/api/auth/recover',
      payload: { email: payload.email },
      remoteAddress: freshIp(),
    });
    expect(res.statusCode).toBe(200);
    const mail = await mailTo(payload.email, '/reset-password?token=');
    expect(mail.raw).toMatch(/Subject: Reset your Canto password/);
    const token = decodeURIComponent(
      mail.raw.match(/reset-password\?token=([A-Za-z0-9_%-]+)/)![1]!,
    );

    const reset = await app.inject({
      method: 'POST',
      url: '/api/auth/reset-password',
      payload: { token, password: 'via-smtp-pass' },
    });
    expect(reset.statusCode).toBe(200);
    const signIn = await app.inject({
      method: 'POST',
      url: '/api/auth/sign-in',
      payload: { email: payload.email, password: 'via-smtp-pass' },
      remoteAddress: freshIp(),
    });
    expect(signIn.statusCode).toBe(200);
  });
});
