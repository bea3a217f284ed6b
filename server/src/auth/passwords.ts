import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

const KEY_LENGTH = 64;

function derive(password: string, salt: Buffer, cost: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password, salt, KEY_LENGTH, { N: cost, r: 8, p: 1, maxmem: 256 * cost * 8 + 1024 * 1024 }, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

/**
 * Hashes a password with scrypt (memory-hard, in Node's standard library). The result records its own
 * parameters, so the cost can be raised later without breaking stored hashes.
 */
export async function hashPassword(password: string, cost: number): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, cost);
  return `scrypt$${cost}$${salt.toString('base64')}$${key.toString('base64')}`;
}

/** Checks a password against a stored hash in constant time. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, costText, saltText, keyText] = stored.split('$');
  if (scheme !== 'scrypt' || !costText || !saltText || !keyText) return false;
  const expected = Buffer.from(keyText, 'base64');
  const actual = await derive(password, Buffer.from(saltText, 'base64'), Number(costText));
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** A hash to compare against when the account doesn't exist, so timing doesn't reveal which emails exist. */
export async function decoyHash(cost: number): Promise<string> {
  return hashPassword(randomBytes(12).toString('hex'), cost);
}
