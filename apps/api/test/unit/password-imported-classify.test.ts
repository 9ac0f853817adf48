import { randomBytes } from 'node:crypto';
import { argon2id, bcrypt } from 'hash-wasm';
import { describe, expect, it } from 'vitest';
import { classifyImportedHash } from '../../src/auth/imported-hashes.js';

/** Laravel's UserFactory hash of "password" (database/factories/UserFactory.php up to Laravel 10). */
const LARAVEL = '$2y$10$92IXUNpkjO0rOQ5byMi.Ye4oKoEa3Ro9llC/.og/at2.uheWG/igi';

/** A PHC argon2id string made by hash-wasm (independent of the verifier), with the given parameters. */
const argon = (m: number, t: number, p: number, hashLength = 32, saltBytes = 16) =>
  argon2id({
    password: 'pw',
    salt: randomBytes(saltBytes),
    memorySize: m,
    iterations: t,
    parallelism: p,
    hashLength,
    outputType: 'encoded',
  });

/** The PHC string with its parameter segment replaced (the encoding is not re-checked by the shape). */
const withParams = (phc: string, params: string) => phc.replace(/m=\d+,t=\d+,p=\d+/, params);

function refusal(hash: string): string {
  const result = classifyImportedHash(hash);
  if (!('error' in result)) throw new Error('accepted');
  expect(result.error.code).toBe('BAD_PASSWORD_HASH');
  // Every refusal says what would be accepted, and never repeats the value it refused.
  expect(result.error.message).toContain('Accepted: bcrypt ($2a$, $2b$ or $2y$) with a cost from 4 to 13');
  expect(result.error.message).toContain('argon2id');
  if (hash.length > 4) expect(result.error.message).not.toContain(hash);
  return result.error.message;
}

describe('classifyImportedHash: bcrypt', () => {
  it('accepts the Laravel vector and each of $2a$, $2b$, $2y$', async () => {
    expect(classifyImportedHash(LARAVEL)).toEqual({ kind: 'bcrypt' });
    const made = await bcrypt({ password: 'pw', salt: randomBytes(16), costFactor: 4, outputType: 'encoded' });
    for (const prefix of ['$2a$', '$2b$', '$2y$']) {
      expect(classifyImportedHash(prefix + made.slice(4))).toEqual({ kind: 'bcrypt' });
    }
  });

  it('accepts costs 4 to 13 and refuses the rest, naming the cost', () => {
    const at = (cost: string) => `$2y$${cost}$${LARAVEL.slice(7)}`;
    expect(classifyImportedHash(at('04'))).toEqual({ kind: 'bcrypt' });
    expect(classifyImportedHash(at('13'))).toEqual({ kind: 'bcrypt' });
    expect(refusal(at('14'))).toMatch(/^The bcrypt cost 14 is outside the accepted range\./);
    expect(refusal(at('31'))).toMatch(/cost 31/);
    expect(refusal(at('03'))).toMatch(/cost 3 /);
  });

  it('refuses malformed ones: length, alphabet, cost digits, stray padding bits', () => {
    const malformed = /^The bcrypt hash is malformed/;
    expect(refusal(LARAVEL.slice(0, -1))).toMatch(malformed);
    expect(refusal(`${LARAVEL}a`)).toMatch(malformed);
    expect(refusal(LARAVEL.replace('92IX', '92I+'))).toMatch(malformed);
    expect(refusal(LARAVEL.replace('$10$', '$1$'))).toMatch(malformed);
    // The 22nd salt character carries 4 unused bits ('e' → 'f' sets one), the 31st checksum one 2.
    expect(refusal(LARAVEL.replace('Mi.Ye4o', 'Mi.Yf4o'))).toMatch(malformed);
    expect(refusal(`${LARAVEL.slice(0, -1)}j`)).toMatch(malformed);
  });

  it('names the $2x$ variant and refuses it', () => {
    expect(refusal(`$2x$${LARAVEL.slice(4)}`)).toMatch(/\$2x\$/);
  });
});

describe('classifyImportedHash: argon2id', () => {
  it('accepts real PHC strings within the limits', async () => {
    expect(classifyImportedHash(await argon(64, 1, 1))).toEqual({ kind: 'argon2id' });
    expect(classifyImportedHash(await argon(64, 2, 8, 64, 48))).toEqual({ kind: 'argon2id' });
    expect(classifyImportedHash(await argon(64, 3, 1, 16, 8))).toEqual({ kind: 'argon2id' });
    // The parameters of PHP's default, Django's and libsodium's MODERATE (shape only: not computed).
    const phc = await argon(64, 1, 1);
    for (const params of ['m=65536,t=4,p=1', 'm=102400,t=2,p=8', 'm=262144,t=3,p=1', 'm=262144,t=4,p=4']) {
      expect(classifyImportedHash(withParams(phc, params))).toEqual({ kind: 'argon2id' });
    }
  });

  it('refuses parameters above the caps, and m × t above 1 GiB-passes', async () => {
    const phc = await argon(64, 1, 1);
    const above = /^The argon2id parameters are above the accepted limits\./;
    expect(refusal(withParams(phc, 'm=262145,t=1,p=1'))).toMatch(above);
    expect(refusal(withParams(phc, 'm=65536,t=11,p=1'))).toMatch(above);
    expect(refusal(withParams(phc, 'm=65536,t=1,p=9'))).toMatch(above);
    expect(refusal(withParams(phc, 'm=262144,t=5,p=1'))).toMatch(above);
    expect(refusal(withParams(phc, 'm=4294967295,t=1,p=1'))).toMatch(above);
  });

  it('refuses other versions, a missing version and malformed strings', async () => {
    const phc = await argon(64, 1, 1);
    expect(refusal(phc.replace('v=19', 'v=16'))).toMatch(/^Only argon2id version v=19/);
    expect(refusal(phc.replace('$v=19', ''))).toMatch(/has no version/);
    const malformed = /^The argon2id hash is malformed/;
    expect(refusal(withParams(phc, 't=1,m=64,p=1'))).toMatch(malformed);
    expect(refusal(withParams(phc, 'm=64,t=1,p=1,keyid=abc'))).toMatch(malformed);
    expect(refusal(withParams(phc, 'm=064,t=1,p=1'))).toMatch(malformed);
    expect(refusal(withParams(phc, 'm=16,t=1,p=4'))).toMatch(malformed); // below 8 KiB a lane
    expect(refusal(`${phc}=`)).toMatch(malformed); // padded
    expect(refusal(`${phc}$extra`)).toMatch(malformed);
    expect(refusal(phc.replace(/\$[^$]+\$([^$]+)$/, '$$short$$$1'))).toMatch(malformed); // salt under 8 bytes
    expect(refusal(await argon(64, 1, 1, 8))).toMatch(malformed); // an 8-byte output
    const parts = phc.split('$');
    const salt = parts[4] as string;
    // 16 bytes leave 4 unused bits in the last character: setting one (the next letter of the
    // alphabet) is a non-canonical spelling, refused like any other damage.
    const b64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
    const last = b64[b64.indexOf(salt.at(-1) as string) + 1] as string;
    expect(refusal([...parts.slice(0, 4), salt.slice(0, -1) + last, parts[5]].join('$'))).toMatch(malformed);
  });
});

describe('classifyImportedHash: everything else', () => {
  const cases: Array<[string, RegExp]> = [
    ['$1$saltsalt$qjXMvbEw8oaL.CzflDugX/', /MD5-crypt/],
    ['$5$rounds=5000$saltsalt$Gb4CZPlqg3aMmRnJyM.ZUQGNWP4q0EvHbtU7nE6OMl2', /SHA-256-crypt/],
    [
      '$6$saltsalt$qFmFH.bQmmtXzyBY0s9v7Oicd2z4XSIecDzlB5KiA2/jctKu9YterLp8wwnSq.qc.eoxqOmSuNp2xS0ktL3nh/',
      /SHA-512-crypt/,
    ],
    ['$argon2i$v=19$m=65536,t=4,p=1$c29tZXNhbHQ$RdescudvJCsgt3ub+b+dWRWJTmaaJObG', /argon2i or argon2d/],
    ['pbkdf2_sha256$600000$salt$hash', /PBKDF2/],
    ['$P$BQ8R6/L0S5l6xEFoz9x0bWkzQWyd2/.', /phpass/],
    ['5f4dcc3b5aa765d61d8327deb882cf99', /unsalted MD5/],
    ['5baa61e4c9b93f3f0682250b6cf8331b7ee68fd8', /unsalted SHA-1/],
    ['{SSHA}abcdefgh', /LDAP-style/],
    [`bcrypt$${LARAVEL}`, /Django-wrapped/],
    ['hunter2hunter2', /not a password hash this product recognises.*password column/],
    ['', /^The password hash is empty\./],
    [` ${LARAVEL}`, /spaces or line breaks/],
    [`${LARAVEL}\r`, /spaces or line breaks/],
    ['x'.repeat(300), /too long/],
  ];
  it.each(cases)('refuses %s, naming what it is and what is accepted', (hash, message) => {
    expect(refusal(hash)).toMatch(message);
  });
});
