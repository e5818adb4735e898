import type { Transporter } from 'nodemailer';
import type { Log } from '../log.ts';

export type Mail = { to: string; subject: string; text: string };
export type Mailer = {
  /** True when real mail goes out (SMTP_URL set); false when mail is only logged. */
  readonly delivers: boolean;
  send(mail: Mail): Promise<void>;
};

export function createMailer(
  smtpUrl: string | undefined,
  log: Log,
  from = 'Canto <no-reply@canto.local>',
): Mailer {
  if (!smtpUrl) {
    // Without SMTP the message (e.g. a reset link) is written to the server log: an operator
    // of a server without mail can still hand it on.
    return {
      delivers: false,
      async send(mail) {
        log.info(
          { to: mail.to, subject: mail.subject, text: mail.text },
          'mail not sent (no SMTP_URL)',
        );
      },
    };
  }
  // nodemailer is loaded with the first mail, not at start (docs/decisions/0009).
  let transport: Promise<Transporter> | undefined;
  return {
    delivers: true,
    async send(mail) {
      transport ??= import('nodemailer').then((m) => m.default.createTransport(smtpUrl));
      const smtp = await transport;
      await smtp.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text });
    },
  };
}
