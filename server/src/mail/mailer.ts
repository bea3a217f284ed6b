import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { MailService } from '@balcao/plugin-sdk/server';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';

/** A message the platform sends (password reset codes, later notices). */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** Sends mail. */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/**
 * SMTP through nodemailer when SMTP_URL is set. Without it (a local demo), messages are written as files
 * to the outbox folder and the log says where, so a newcomer can still finish a password reset.
 */
export function createMailer(options: {
  smtpUrl: string | null;
  from: string;
  outboxDir: string;
  log: FastifyBaseLogger;
}): Mailer {
  if (options.smtpUrl) {
    const transport = nodemailer.createTransport(options.smtpUrl);
    return {
      async send(message) {
        await transport.sendMail({ from: options.from, ...message });
      },
    };
  }
  return {
    async send(message) {
      await mkdir(options.outboxDir, { recursive: true });
      // two messages to one address in the same millisecond (a feature telling several admins) keep both
      const unique = randomUUID().slice(0, 8);
      const file = path.join(options.outboxDir, `${Date.now()}-${unique}-${message.to.replace(/[^a-z0-9@.]/gi, '_')}.txt`);
      await writeFile(file, `To: ${message.to}\nSubject: ${message.subject}\n\n${message.text}\n`);
      options.log.warn({ file }, 'SMTP_URL is not set: mail written to the outbox folder instead of sent');
    },
  };
}

/** A single address: no list, no display name, no line break that could add a header. */
const ONE_ADDRESS = /^[^\s@,;<>"]+@[^\s@,;<>"]+$/;

/**
 * The mailer as features reach it (`ctx.mail`, the SDK's MailService): one address per message, refused
 * otherwise, so a feature can't send one message to a list whose members see each other.
 */
export function mailService(mailer: Mailer): MailService {
  return {
    async send(message) {
      const to = message.to.trim();
      if (!ONE_ADDRESS.test(to)) throw new Error('ctx.mail.send: `to` must be one e-mail address');
      await mailer.send({ to, subject: message.subject.replace(/[\r\n]+/g, ' '), text: message.text });
    },
  };
}
