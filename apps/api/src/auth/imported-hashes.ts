import { ENCODABLE_TEXT_PATTERN } from '@app/contracts';

/**
 * Password hashes brought in by a user import (issue 26): bcrypt and argon2id, as the old system
 * stored them. They are kept as they are, verified at sign-in and replaced by this product's own
 * scheme at the first successful one. Verification runs on libuv's thread pool (@node-rs: Rust,
 * prebuilt per platform on the npm registry), so a slow hash never blocks the event loop. The two
 * native verifiers load at the first sign-in on such a hash: loaded at start they hold about 8 MB
 * of an instance's memory that most never use (issue 41, idle RSS).
 */
export type ImportedHashKind = 'bcrypt' | 'argon2id';

export type ImportedHashError = { code: 'BAD_PASSWORD_HASH'; message: string };

export type ImportedHashClass = { kind: ImportedHashKind } | { error: ImportedHashError };

/**
 * The costs accepted. An import file decides how expensive every sign-in attempt on its accounts
 * is, until the first success replaces the hash, so a hostile or careless file must not be able
 * to make each one cost seconds of a thread-pool thread (4 threads, shared with SQLite and every
 * other hash) or hundreds of MiB. Measured on the 2-core reference machine: bcrypt cost 12 takes
 * ~0.45 s, 13 ~1 s, 14 ~2 s, so 13 (twice the cost 12 of Laravel 11, Rails and Devise; Laravel
 * 10 and PHP before 8.4 used 10) is the ceiling; 4 is bcrypt's own floor, and Laravel test
 * suites export it. argon2id: m ≤ 256 MiB covers PHP's and Laravel's default (64 MiB, t=4),
 * Django's (100 MiB, t=2, p=8), RFC 9106's second recommendation (64 MiB, t=3, p=4) and
 * libsodium's MODERATE (256 MiB, t=3); the work m × t is capped at 1 GiB-passes (~0.8 s), so
 * 256 MiB with t=10 is refused even though each parameter alone is within its own cap.
 */
export const IMPORTED_HASH_LIMITS = {
  bcrypt: { minCost: 4, maxCost: 13 },
  argon2id: { maxMemoryKiB: 262_144, maxTime: 10, maxParallelism: 8, maxWork: 1_048_576 },
} as const;

const { bcrypt: B, argon2id: A } = IMPORTED_HASH_LIMITS;

const ACCEPTED =
  `Accepted: bcrypt ($2a$, $2b$ or $2y$) with a cost from ${B.minCost} to ${B.maxCost}, and argon2id in ` +
  `its PHC form (version 19, parameters m, t and p, then salt and hash) with m at most ${A.maxMemoryKiB} KiB, t at most ` +
  `${A.maxTime}, p at most ${A.maxParallelism} and m × t at most ${A.maxWork}.`;

/** Longer than any accepted hash (bcrypt: 60 characters; argon2id at the caps: ~190). */
const MAX_LENGTH = 256;

const refuse = (problem: string): ImportedHashClass => ({
  error: { code: 'BAD_PASSWORD_HASH', message: `${problem} ${ACCEPTED}` },
});

/** Schemes seen in exports that are recognised only to be named in the refusal. */
const OTHER_SCHEMES: ReadonlyArray<[RegExp, string]> = [
  [/^\$2x\$/, 'bcrypt $2x$ (the compatibility mode for an old crypt_blowfish bug)'],
  [/^\$argon2(i|d)\$/, 'argon2i or argon2d (only argon2id is accepted)'],
  [/^\$1\$/, 'MD5-crypt ($1$)'],
  [/^\$apr1\$/, 'Apache MD5 ($apr1$)'],
  [/^\$5\$/, 'SHA-256-crypt ($5$)'],
  [/^\$6\$/, 'SHA-512-crypt ($6$)'],
  [/^\$[PH]\$/, 'phpass (WordPress, phpBB)'],
  [/^\$(y|7|gy)\$|^\$scrypt\$/, 'yescrypt or scrypt'],
  [/^(\$pbkdf2|pbkdf2)/i, 'PBKDF2'],
  [
    /^(bcrypt|bcrypt_sha256|argon2|sha1|md5|unsalted_\w+)\$/,
    'a Django-wrapped hash (remove the wrapper or reset the password)',
  ],
  [/^\{[A-Z0-9-]+\}/, 'an LDAP-style {SCHEME} hash'],
  [/^[0-9a-f]{32}$/i, 'an unsalted MD5 digest'],
  [/^[0-9a-f]{40}$/i, 'an unsalted SHA-1 digest'],
  [/^[0-9a-f]{64}$/i, 'an unsalted SHA-256 digest'],
  [/^[0-9a-f]{128}$/i, 'an unsalted SHA-512 digest'],
];

/** bcrypt's base64 alphabet: the last character of the salt and of the checksum carry padding bits. */
const BCRYPT_B64 = './ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const BCRYPT = /^\$2[aby]\$(\d\d)\$([./A-Za-z0-9]{22})([./A-Za-z0-9]{31})$/;

function classifyBcrypt(hash: string): ImportedHashClass {
  const m = BCRYPT.exec(hash);
  const malformed =
    'The bcrypt hash is malformed: it must be $2a$, $2b$ or $2y$, a two-digit cost, a $, then 53 characters of bcrypt base64.';
  if (!m) return refuse(malformed);
  const [, cost, salt, checksum] = m as unknown as [string, string, string, string];
  // 16 salt bytes leave 4 unused bits in the 22nd character, 23 checksum bytes 2 in the 31st.
  // PHP writes them as zero and compares whole strings, so a hash with them set never verified there.
  if (BCRYPT_B64.indexOf(salt.at(-1) as string) % 16 !== 0 || BCRYPT_B64.indexOf(checksum.at(-1) as string) % 4 !== 0)
    return refuse(malformed);
  const n = Number(cost);
  if (n < B.minCost || n > B.maxCost) return refuse(`The bcrypt cost ${n} is outside the accepted range.`);
  return { kind: 'bcrypt' };
}

/** Standard base64 without padding, in its one canonical spelling, of `min`…`max` bytes. */
function isB64(text: string, min: number, max: number): boolean {
  if (!/^[A-Za-z0-9+/]+$/.test(text)) return false;
  const bytes = Buffer.from(text, 'base64');
  return bytes.length >= min && bytes.length <= max && bytes.toString('base64').replace(/=+$/, '') === text;
}

const DECIMAL = '([1-9]\\d{0,9})';
const ARGON2_PARAMS = new RegExp(`^m=${DECIMAL},t=${DECIMAL},p=${DECIMAL}$`);

function classifyArgon2id(hash: string): ImportedHashClass {
  const malformed =
    'The argon2id hash is malformed: it must read $argon2id$v=19$m=…,t=…,p=…$salt$hash, with the salt and hash in unpadded base64.';
  const parts = hash.split('$');
  // Version 0x10 predates argon2id in practice (every argon2id encoder writes v=19), and an
  // absent v= means 0x10 by the PHC convention: refused rather than guessed.
  if (parts.length === 5 && parts[2]?.startsWith('m='))
    return refuse('The argon2id hash has no version: only v=19 is accepted.');
  if (parts.length !== 6) return refuse(malformed);
  const [, , version, params, salt, digest] = parts as [string, string, string, string, string, string];
  if (version !== 'v=19')
    return refuse(/^v=\d+$/.test(version) ? 'Only argon2id version v=19 is accepted.' : malformed);
  const p = ARGON2_PARAMS.exec(params);
  if (!p) return refuse(malformed);
  const [memory, time, lanes] = p.slice(1).map(Number) as [number, number, number];
  if (memory > A.maxMemoryKiB || time > A.maxTime || lanes > A.maxParallelism || memory * time > A.maxWork)
    return refuse('The argon2id parameters are above the accepted limits.');
  // Argon2 itself needs 8 KiB per lane; salts of 8 to 48 bytes and outputs of 16 to 64 bytes
  // are what the verifier reads (and every real encoder writes: 16 and 32 by default).
  if (memory < 8 * lanes || !isB64(salt, 8, 48) || !isB64(digest, 16, 64)) return refuse(malformed);
  return { kind: 'argon2id' };
}

/**
 * Whether an imported `password_hash` can be kept: bcrypt or argon2id, well formed and within
 * IMPORTED_HASH_LIMITS. A refusal's message says what is accepted and never repeats the hash.
 */
export function classifyImportedHash(hash: string): ImportedHashClass {
  if (hash.length === 0) return refuse('The password hash is empty.');
  if (hash.length > MAX_LENGTH) return refuse('The password hash is too long to be one this product accepts.');
  if (hash.trim() !== hash) return refuse('The password hash has spaces or line breaks around it.');
  if (/^\$2[aby]\$/.test(hash)) return classifyBcrypt(hash);
  if (hash.startsWith('$argon2id$')) return classifyArgon2id(hash);
  const other = OTHER_SCHEMES.find(([pattern]) => pattern.test(hash));
  if (other) return refuse(`The password hash is ${other[1]}, which cannot be imported.`);
  return refuse(
    'The value is not a password hash this product recognises (a plain-text password belongs in the password column).',
  );
}

/** bcrypt reads at most 72 bytes of the password. */
const BCRYPT_MAX_BYTES = 72;

/**
 * Verifies a password against a hash that classifyImportedHash accepted, with the semantics of
 * the system that made it:
 * - The password as typed, not NFKC-normalised as our scrypt scheme does: the old system hashed
 *   the bytes it received, and normalising would lock out passwords with compatibility characters.
 * - bcrypt: the first 72 bytes of the UTF-8, as PHP's password_verify (crypt) reads them, so a
 *   longer Laravel password still signs in. $2a$, $2b$ and $2y$ agree on every UTF-8 input: they
 *   differ only for a 0xFF byte (crypt_blowfish's $2a$ safety measure) or beyond 255 bytes.
 * - A password with NUL or half a surrogate pair never matches. No form could have set one (a
 *   browser sends neither), PHP would have cut the password at the NUL, and the rehash after a
 *   match must store only what the password rules allow.
 */
export async function verifyImportedHash(password: string, hash: string, kind: ImportedHashKind): Promise<boolean> {
  if (!ENCODABLE_TEXT_PATTERN.test(password)) return false;
  try {
    if (kind === 'bcrypt') {
      const { verify } = await import('@node-rs/bcrypt');
      return await verify(Buffer.from(password, 'utf8').subarray(0, BCRYPT_MAX_BYTES), hash);
    }
    const { verify } = await import('@node-rs/argon2');
    return await verify(hash, password);
  } catch {
    // Classification leaves nothing for the verifier to refuse; a refusal still only means "no".
    return false;
  }
}
