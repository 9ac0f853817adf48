import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';
import { keyId, openSecret, SecretUnavailable, sealSecret, secretKeys } from '../../src/webhooks/secret-box.js';

const SECRET = `whsec_${randomBytes(32).toString('base64')}`;
const keyA = randomBytes(32);
const keyB = randomBytes(32);

describe('signing secrets sealed at rest', () => {
  it('seals with the current key (AES-256-GCM, a fresh IV each time) and opens again', () => {
    const keys = secretKeys(keyA);
    const one = sealSecret(SECRET, keys);
    const two = sealSecret(SECRET, keys);
    expect(one).toMatch(new RegExp(`^v1\\.${keyId(keyA)}\\.[\\w-]{16}\\.[\\w-]+\\.[\\w-]{22}$`));
    expect(one).not.toBe(two);
    expect(one).not.toContain(SECRET.slice(6, 20));
    expect(one.length).toBeLessThanOrEqual(255);
    expect(openSecret(one, keys)).toBe(SECRET);
    expect(openSecret(two, keys)).toBe(SECRET);
  });

  it('stores and reads the secret as it is when no key is configured', () => {
    const none = secretKeys(undefined);
    expect(sealSecret(SECRET, none)).toBe(SECRET);
    expect(openSecret(SECRET, none)).toBe(SECRET);
    // A key set later still reads what was stored before it.
    expect(openSecret(SECRET, secretKeys(keyA))).toBe(SECRET);
  });

  it('opens what a previous key sealed, and names the key it lacks', () => {
    const sealedByA = sealSecret(SECRET, secretKeys(keyA));
    expect(openSecret(sealedByA, secretKeys(keyB, [keyA]))).toBe(SECRET);
    expect(() => openSecret(sealedByA, secretKeys(keyB))).toThrow(SecretUnavailable);
    expect(() => openSecret(sealedByA, secretKeys(undefined))).toThrow(`sealed with key ${keyId(keyA)}`);
  });

  it('refuses a sealed value that was altered', () => {
    const sealed = sealSecret(SECRET, secretKeys(keyA));
    const parts = sealed.split('.');
    const ciphertext = Buffer.from(parts[3] as string, 'base64url');
    ciphertext[0] = (ciphertext[0] as number) ^ 1;
    parts[3] = ciphertext.toString('base64url');
    expect(() => openSecret(parts.join('.'), secretKeys(keyA))).toThrow(/altered/);
  });

  it('refuses a key that is not 32 bytes of base64 at start-up, without echoing it', () => {
    const short = randomBytes(16).toString('base64');
    let error: unknown;
    try {
      loadConfig({ SECRETS_KEY: short, SECRETS_KEY_PREVIOUS: `${keyA.toString('base64')}, nope` });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toContain('SECRETS_KEY: must be 32 random bytes in base64');
    expect(message).toContain('SECRETS_KEY_PREVIOUS: each key must be 32 random bytes in base64');
    expect(message).not.toContain(short);
    expect(message).not.toContain(keyA.toString('base64'));
    const ok = loadConfig({ SECRETS_KEY: keyA.toString('base64'), SECRETS_KEY_PREVIOUS: keyB.toString('base64') });
    expect(ok.SECRETS_KEY?.equals(keyA)).toBe(true);
    expect(ok.SECRETS_KEY_PREVIOUS.map((k) => k.equals(keyB))).toEqual([true]);
  });
});
