import { randomBytes } from 'node:crypto';
import { hash as nodeRsArgon2 } from '@node-rs/argon2';
import { argon2id, argon2Verify, bcrypt } from 'hash-wasm';
import { describe, expect, it } from 'vitest';
import { hashPassword, needsRehash, UNUSABLE_PASSWORD, verifyPassword } from '../../src/auth/password.js';

/** Laravel's UserFactory hash of "password": made by PHP, the system the imports come from. */
const LARAVEL = '$2y$10$92IXUNpkjO0rOQ5byMi.Ye4oKoEa3Ro9llC/.og/at2.uheWG/igi';

/** bcrypt of `password` (a string, or raw bytes) by hash-wasm, an implementation independent of the verifier's. */
const bcryptOf = (password: string | Uint8Array, prefix = '$2b$') =>
  bcrypt({ password, salt: randomBytes(16), costFactor: 4, outputType: 'encoded' }).then((h) => prefix + h.slice(4));

const argon2idOf = (password: string, m = 256, t = 2, p = 2) =>
  argon2id({
    password,
    salt: randomBytes(16),
    memorySize: m,
    iterations: t,
    parallelism: p,
    hashLength: 32,
    outputType: 'encoded',
  });

describe('verifying imported bcrypt hashes', () => {
  it('signs "password" in against the Laravel vector, and nothing else', async () => {
    expect(await verifyPassword('password', LARAVEL)).toBe(true);
    expect(await verifyPassword('Password', LARAVEL)).toBe(false);
    expect(await verifyPassword('password ', LARAVEL)).toBe(false);
    expect(await verifyPassword('', LARAVEL)).toBe(false);
  });

  it('verifies $2a$, $2b$ and $2y$ hashes made by another implementation', async () => {
    for (const prefix of ['$2a$', '$2b$', '$2y$']) {
      const hash = await bcryptOf('Tr0ub4dor&3 ünïcode ✓', prefix);
      expect(hash.startsWith(prefix)).toBe(true);
      expect(await verifyPassword('Tr0ub4dor&3 ünïcode ✓', hash)).toBe(true);
      expect(await verifyPassword('Tr0ub4dor&3 ünïcode ✗', hash)).toBe(false);
    }
  });

  it('reads the first 72 bytes of the UTF-8, as PHP does, even inside a character', async () => {
    // 1 + 40 × 2 bytes: byte 72 is the first half of the 36th "é".
    const long = `a${'é'.repeat(40)}`;
    const hash = await bcryptOf(Buffer.from(long, 'utf8').subarray(0, 72));
    expect(await verifyPassword(long, hash)).toBe(true);
    expect(await verifyPassword(`a${'é'.repeat(36)}tail`, hash)).toBe(true);
    expect(await verifyPassword(`a${'é'.repeat(35)}`, hash)).toBe(false);
    expect(await verifyPassword(`a${'é'.repeat(35)}e`, hash)).toBe(false);
  });

  it('verifies the password as typed, not normalised as our own scheme does', async () => {
    const hash = await bcryptOf('ｐａｓｓｗｏｒｄ'); // full-width letters: NFKC makes them "password"
    expect(await verifyPassword('ｐａｓｓｗｏｒｄ', hash)).toBe(true);
    expect(await verifyPassword('password', hash)).toBe(false);
  });

  it('never matches a password holding NUL, which PHP would have cut short', async () => {
    const hash = await bcryptOf('abc');
    expect(await verifyPassword('abc', hash)).toBe(true);
    expect(await verifyPassword('abc\u0000def', hash)).toBe(false);
  });

  it('matches nothing against a hash outside the caps, even if it was written to the table directly', async () => {
    const costly = `$2y$14$${LARAVEL.slice(7)}`;
    expect(await verifyPassword('password', costly)).toBe(false);
  });
});

/**
 * Made by PHP 8.2's password_hash (Debian's php-cli), what Laravel calls: external vectors for
 * the semantics a migration must keep. PHP's password_verify gives the same answers as below.
 */
const PHP = {
  /** "a" + 40 × "é" (81 bytes), bcrypt cost 4. */
  long: '$2y$04$Kt5QEflxYttLvFG/CJqGqelY4ywdkJnrfDN2BMBjxh//gXxcaYlda',
  /** "Grüße, 世界 ✓", bcrypt cost 5. */
  unicode: '$2y$05$kOZci.QeaUGnjiV0V9NF0emUwV.5DOEgtkTYUNasm/PMCAa4NGOLe',
  /** "Grüße, 世界 ✓", argon2id m=1024, t=2, p=1. */
  argon2id: '$argon2id$v=19$m=1024,t=2,p=1$d1ZqWVIuUWxlQ2d6d3U4TQ$cbKgQ4Frz9ok+8fyfLhfthIIixL2ecxtdayMwzorBmw',
  /** "password" with PHP's (and Laravel's) argon2id defaults: m=65536, t=4, p=1. */
  argon2idDefault: '$argon2id$v=19$m=65536,t=4,p=1$NkVMNTRObVRqQ2RtM3RMQg$IRo/fAgpptQthmBYe+tOiS+0ueHjzi32odQAGALYwM8',
};

describe('hashes made by PHP', () => {
  it('bcrypt: a password past 72 bytes signs in by its first 72, as password_verify says', async () => {
    expect(await verifyPassword(`a${'é'.repeat(40)}`, PHP.long)).toBe(true);
    expect(await verifyPassword(`a${'é'.repeat(36)}tail`, PHP.long)).toBe(true);
    expect(await verifyPassword(`a${'é'.repeat(35)}`, PHP.long)).toBe(false);
  });

  it('bcrypt and argon2id of a non-ASCII password', async () => {
    expect(await verifyPassword('Grüße, 世界 ✓', PHP.unicode)).toBe(true);
    expect(await verifyPassword('Grüsse, 世界 ✓', PHP.unicode)).toBe(false);
    expect(await verifyPassword('Grüße, 世界 ✓', PHP.argon2id)).toBe(true);
    expect(await verifyPassword('Grüße, 世界 ✗', PHP.argon2id)).toBe(false);
  });

  it('argon2id with PHP’s default parameters', async () => {
    expect(await verifyPassword('password', PHP.argon2idDefault)).toBe(true);
    expect(await verifyPassword('passwort', PHP.argon2idDefault)).toBe(false);
  });
});

describe('verifying imported argon2id hashes', () => {
  it('verifies hashes made by hash-wasm', async () => {
    const hash = await argon2idOf('sesame ouvre-toi');
    expect(await verifyPassword('sesame ouvre-toi', hash)).toBe(true);
    expect(await verifyPassword('sesame ouvre-moi', hash)).toBe(false);
  });

  it('the verifier’s own library makes hashes that hash-wasm verifies (the two agree both ways)', async () => {
    const hash = await nodeRsArgon2('sesame', { memoryCost: 1024, timeCost: 2, parallelism: 2 });
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=1024,t=2,p=2\$/); // argon2id is its default
    expect(await argon2Verify({ password: 'sesame', hash })).toBe(true);
    expect(await verifyPassword('sesame', hash)).toBe(true);
    expect(await verifyPassword('Sesame', hash)).toBe(false);
  });

  it('matches nothing when the parameters exceed the caps', async () => {
    const hash = await argon2idOf('sesame', 64, 11, 1);
    expect(await argon2Verify({ password: 'sesame', hash })).toBe(true);
    expect(await verifyPassword('sesame', hash)).toBe(false);
  });
});

describe('cost of a failed verification', () => {
  it('a cheap imported hash costs at least one scrypt run, like an unknown account', async () => {
    const cheap = await bcryptOf('abc'); // cost 4: about a millisecond alone
    await verifyPassword('warm-up', UNUSABLE_PASSWORD);
    const time = async (stored: string) => {
      const t0 = performance.now();
      await verifyPassword('wrong guess', stored);
      return performance.now() - t0;
    };
    const unusable: number[] = [];
    const imported: number[] = [];
    for (let i = 0; i < 5; i += 1) {
      unusable.push(await time(UNUSABLE_PASSWORD));
      imported.push(await time(cheap));
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[2] as number;
    expect(median(imported)).toBeGreaterThan(median(unusable) / 2);
  });

  it('a damaged scrypt row matches nothing instead of throwing', async () => {
    for (const stored of [
      'scrypt$x$8$1$c2FsdA==$a2V5',
      'scrypt$3$8$1$c2FsdHNhbHQ=$a2V5a2V5a2V5a2V5a2V5',
      'scrypt$$$$$',
    ]) {
      expect(await verifyPassword('anything', stored)).toBe(false);
    }
  });
});

describe('needsRehash', () => {
  it('is true for imported hashes and for our own made with weaker parameters', async () => {
    expect(needsRehash(LARAVEL)).toBe(true);
    expect(needsRehash(await argon2idOf('x'))).toBe(true);
    const current = await hashPassword('x'.repeat(10));
    expect(needsRehash(current)).toBe(false);
    const weaker = current.replace(/^scrypt\$32768\$/, 'scrypt$16384$');
    expect(needsRehash(weaker)).toBe(true);
  });

  it('is false for what cannot verify: unusable, empty, malformed, refused imports', () => {
    for (const stored of [
      UNUSABLE_PASSWORD,
      '',
      null,
      undefined,
      'scrypt$x',
      '$6$salt$hash',
      `$2y$14$${LARAVEL.slice(7)}`,
    ]) {
      expect(needsRehash(stored)).toBe(false);
    }
  });
});
