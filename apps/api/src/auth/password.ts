import { randomBytes, scrypt as scryptCb, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { classifyImportedHash, verifyImportedHash } from './imported-hashes.js';

const scrypt = promisify(scryptCb) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: { N: number; r: number; p: number; maxmem: number },
) => Promise<Buffer>;

// scrypt with N=2^15, r=8, p=1 (OWASP's minimum is 2^17 for r=8,p=1 at ~64 MiB; 2^15 keeps a
// 2-core box responsive at ~60 ms a hash while staying far beyond brute-force reach of fast hashes).
const PARAMS = { N: 2 ** 15, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;
const maxmem = (N: number, r: number) => 128 * N * r * 2;

/** The stored form: `scrypt$N$r$p$salt$hash` (base64), so parameters can be raised later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, {
    ...PARAMS,
    maxmem: maxmem(PARAMS.N, PARAMS.r),
  });
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64'), key.toString('base64')].join('$');
}

/** A hash no password matches: for accounts that must not log in (demo users, imported accounts). */
export const UNUSABLE_PASSWORD = '!';

type ScryptHash = { N: number; r: number; p: number; salt: Buffer; key: Buffer };

const SCRYPT = /^scrypt\$(\d{1,8})\$(\d{1,2})\$(\d{1,2})\$([A-Za-z0-9+/]+={0,2})\$([A-Za-z0-9+/]+={0,2})$/;

/**
 * A stored hash of our own scheme, or undefined. Only hashPassword writes them; the bounds (far
 * around today's parameters, room to raise them) keep a damaged or tampered row from costing
 * gigabytes or throwing instead of simply matching nothing.
 */
function parseScrypt(stored: string): ScryptHash | undefined {
  const m = SCRYPT.exec(stored);
  if (!m) return undefined;
  const [N, r, p] = [m[1], m[2], m[3]].map(Number) as [number, number, number];
  const salt = Buffer.from(m[4] as string, 'base64');
  const key = Buffer.from(m[5] as string, 'base64');
  const powerOfTwo = (N & (N - 1)) === 0;
  const ok = powerOfTwo && N >= 2 ** 10 && N <= 2 ** 20 && r >= 1 && r <= 32 && p >= 1 && p <= 16;
  return ok && salt.length >= 8 && key.length >= 16 && key.length <= 64 ? { N, r, p, salt, key } : undefined;
}

async function verifyScrypt(password: string, { N, r, p, salt, key }: ScryptHash): Promise<boolean> {
  const actual = await scrypt(password.normalize('NFKC'), salt, key.length, { N, r, p, maxmem: maxmem(N, r) });
  return timingSafeEqual(actual, key);
}

let dummyHash: Promise<ScryptHash> | undefined;

/** One full scrypt run against a hash nobody's password matches. */
async function spendOneHash(password: string): Promise<void> {
  dummyHash ??= hashPassword(randomBytes(16).toString('hex')).then((h) => parseScrypt(h) as ScryptHash);
  await verifyScrypt(password, await dummyHash);
}

/**
 * Constant-time verification. An unusable or malformed hash still costs one full scrypt run,
 * so a response never tells whether the account exists or has a password.
 *
 * Imported bcrypt and argon2id hashes (imported-hashes.ts) cost what their parameters say, and
 * never less than one scrypt run: the dummy runs beside them, so a cheap imported hash (bcrypt
 * cost 4) does not answer faster than an unknown e-mail. A costlier one answers slower, which
 * tells that the account exists with an imported hash not yet replaced; padding every sign-in
 * to the dearest accepted hash would cost far more than that discloses.
 */
export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  const own = parseScrypt(stored ?? '');
  if (own) return verifyScrypt(password, own);
  const imported = stored ? classifyImportedHash(stored) : undefined;
  if (imported && 'kind' in imported) {
    const [ok] = await Promise.all([
      verifyImportedHash(password, stored as string, imported.kind),
      spendOneHash(password),
    ]);
    return ok;
  }
  await spendOneHash(password);
  return false;
}

/**
 * Whether a hash that just verified should be replaced by hashPassword's: every imported hash,
 * and our own made with weaker parameters than today's. Unusable and malformed hashes never
 * verify, so they are never replaced this way.
 */
export function needsRehash(stored: string | null | undefined): boolean {
  const own = parseScrypt(stored ?? '');
  if (own) return own.N < PARAMS.N || own.r < PARAMS.r || own.p < PARAMS.p || own.key.length < KEY_LENGTH;
  if (!stored) return false;
  return 'kind' in classifyImportedHash(stored);
}
