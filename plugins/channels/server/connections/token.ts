import { randomInt } from 'node:crypto';

/** The alphabet of a connection token (docs/product/administration.md#constants-and-limits: 30 random alphanumerics). */
const TOKEN_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const CONNECTION_TOKEN_LENGTH = 30;
export const CONNECTION_TOKEN_PATTERN = /^[A-Za-z0-9]{30}$/;

/**
 * A new connection token. `randomInt` draws each character uniformly from the CSPRNG (it rejects the
 * biased tail itself), so no character is likelier than another.
 */
export function newConnectionToken(): string {
  let token = '';
  for (let index = 0; index < CONNECTION_TOKEN_LENGTH; index += 1) token += TOKEN_ALPHABET[randomInt(TOKEN_ALPHABET.length)];
  return token;
}
