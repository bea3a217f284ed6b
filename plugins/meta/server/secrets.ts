import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { MetaContext } from './config';

/**
 * Tokens at rest (a system-user token, page tokens): AES-256-GCM under META_SECRETS_KEY, as
 * `v1.<iv>.<tag>.<ciphertext>` in base64url; a database dump alone reveals nothing.
 */

// outside production only: tests and the demo work without configuring a key
const DEVELOPMENT_KEY = createHash('sha256').update('balcao-meta-development-key').digest();

export function secretsKey(ctx: MetaContext): Buffer {
  const configured = ctx.config.META_SECRETS_KEY;
  if (configured) return Buffer.from(configured, 'hex');
  if (ctx.config.env === 'production') throw new Error('META_SECRETS_KEY is required in production (64 hex characters)');
  return DEVELOPMENT_KEY;
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
