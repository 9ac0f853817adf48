import { createHash, randomBytes } from 'node:crypto';

/** 32 random bytes, URL-safe: the value handed to a browser (cookie) or a caller (token). */
export function newSecret(prefix = ''): string {
  return `${prefix}${randomBytes(32).toString('base64url')}`;
}

/**
 * What the database keeps instead of the secret. A fast hash is right here (unlike passwords):
 * the input is 256 random bits, so there is nothing to brute-force, and lookups stay O(1).
 */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}
