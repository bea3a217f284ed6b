/**
 * The SMTP stand-in of the webhooks' tests (not a test file): a real SMTP server on loopback (the
 * `smtp-server` package the password reset's test uses) that keeps every message it accepts, decoded, and
 * refuses the recipients the test names with a temporary failure (450), as a mail server that is down for
 * one mailbox does.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string;
  subject: string;
  /** The body, its transfer encoding decoded. */
  text: string;
}

export interface SmtpStandIn {
  url: string;
  inbox: ReceivedMail[];
  /** Recipients refused (450) until taken out of the set. */
  refuse: Set<string>;
  close(): Promise<void>;
}

/** Quoted-printable to text (soft line breaks joined, `=XX` bytes read as UTF-8). */
function decodeQuotedPrintable(text: string): string {
  const bytes = text
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** An RFC 2047 encoded header (`=?UTF-8?Q?…?=` words, folded) to text. */
function decodeHeader(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?UTF-8\?([QB])\?([^?]*)\?=/gi, (_, kind: string, word: string) =>
      kind.toUpperCase() === 'B' ? Buffer.from(word, 'base64').toString('utf8') : decodeQuotedPrintable(word.replace(/_/g, ' ')),
    );
}

function parse(raw: string): ReceivedMail {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, ' ');
  const body = raw.slice(split + 4);
  const header = (name: string) => new RegExp(`^${name}: (.*)$`, 'im').exec(head)?.[1] ?? '';
  const encoding = header('Content-Transfer-Encoding').trim().toLowerCase();
  const text =
    encoding === 'quoted-printable'
      ? decodeQuotedPrintable(body)
      : encoding === 'base64'
        ? Buffer.from(body, 'base64').toString('utf8')
        : Buffer.from(body, 'latin1').toString('utf8');
  return { to: header('To').trim().toLowerCase(), subject: decodeHeader(header('Subject')), text };
}

export async function startSmtpStandIn(): Promise<SmtpStandIn> {
  const inbox: ReceivedMail[] = [];
  const refuse = new Set<string>();
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onRcptTo(address, _session, callback) {
      if (!refuse.has(address.address.toLowerCase())) return callback();
      const error = new Error('mailbox unavailable, try again later') as Error & { responseCode: number };
      error.responseCode = 450;
      callback(error);
    },
    onData(stream, _session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => {
        raw += chunk.toString('latin1');
      });
      stream.on('end', () => {
        inbox.push(parse(raw));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`,
    inbox,
    refuse,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
