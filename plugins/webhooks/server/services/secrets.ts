import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { WebhooksContext } from '../config';

/**
 * Endpoint signing secrets at rest: AES-256-GCM under WEBHOOKS_SECRETS_KEY, as `v1.<iv>.<tag>.<ciphertext>`
 * in base64url — the flow builder's scheme for its integrations' secrets, under a key of the webhooks' own.
 * A database dump alone signs nothing; the key lives in the environment only.
 */

// outside production only: tests and the demo work without configuring a key
const DEVELOPMENT_KEY = createHash('sha256').update('balcao-webhooks-development-key').digest();

export function secretsKey(ctx: WebhooksContext): Buffer {
  const configured = ctx.config.WEBHOOKS_SECRETS_KEY;
  if (configured) return Buffer.from(configured, 'hex');
  if (ctx.config.env === 'production') throw new Error('WEBHOOKS_SECRETS_KEY is required in production (64 hex characters)');
  return DEVELOPMENT_KEY;
}

/** A new signing secret: `whsec_` and 32 random bytes in base64url. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

export function seal(key: Buffer, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), sealed.toString('base64url')].join('.');
}

/** The plain text, or null when the value was sealed under another key or altered. */
export function unseal(key: Buffer, value: string): string | null {
  const [version, iv, tag, sealed] = value.split('.');
  if (version !== 'v1' || !iv || !tag || sealed === undefined) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
