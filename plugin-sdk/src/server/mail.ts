/**
 * The core's outgoing mail, as features reach it (`ctx.mail`): the same mailer as the password reset's — SMTP
 * through `SMTP_URL`, or, without it (a local demo), a file per message in the outbox folder
 * (`MAIL_OUTBOX_DIR`, README "Configuration") — so a feature never opens an SMTP connection of its own.
 */

/** One plain-text message to one address. */
export interface OutgoingMail {
  /** One address: one message each, so recipients never see each other's address. */
  to: string;
  /** One line (line breaks become spaces). */
  subject: string;
  /** The plain-text body. */
  text: string;
}

/**
 * Sends mail through the core's mailer. `send` resolves once the SMTP server accepted the message (or the
 * outbox file is written) and rejects when it didn't: send from durable work (a job, a claimed row) that
 * records what went out, so a failure is tried again and a success is never sent twice.
 */
export interface MailService {
  /** Sends one message; rejects when `to` is not one address or the mail server refused it. */
  send(message: OutgoingMail): Promise<void>;
}
