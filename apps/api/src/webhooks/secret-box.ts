import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/** The keys that seal signing secrets at rest: the current one seals, any of them opens. */
export interface SecretKeys {
  current: { id: string; key: Buffer } | null;
  byId: ReadonlyMap<string, Buffer>;
}

const VERSION = 'v1';
const IV_BYTES = 12;

/** A key's public name: the first 8 hex digits of its SHA-256, so a sealed value says which key opens it. */
export const keyId = (key: Buffer) => createHash('sha256').update(key).digest('hex').slice(0, 8);

export function secretKeys(current: Buffer | undefined, previous: Buffer[] = []): SecretKeys {
  const byId = new Map<string, Buffer>();
  for (const key of [...(current ? [current] : []), ...previous]) byId.set(keyId(key), key);
  return { current: current ? { id: keyId(current), key: current } : null, byId };
}

/** A stored secret that cannot be opened: sealed with a key this process was not given, or altered. */
export class SecretUnavailable extends Error {}

const isSealed = (stored: string) => stored.startsWith(`${VERSION}.`);

/**
 * A signing secret as stored: `v1.<key id>.<iv>.<ciphertext>.<tag>` (AES-256-GCM, base64url)
 * when a key is configured, so a copy of the database alone cannot sign as the product; the
 * secret itself when none is (a single-machine install, which says so at start-up).
 */
export function sealSecret(plain: string, keys: SecretKeys): string {
  if (!keys.current) return plain;
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', keys.current.key, iv);
  const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  const parts = [iv, sealed, cipher.getAuthTag()].map((b) => b.toString('base64url'));
  return [VERSION, keys.current.id, ...parts].join('.');
}

/** The secret a stored value holds; throws SecretUnavailable when it cannot be had. */
export function openSecret(stored: string, keys: SecretKeys): string {
  if (!isSealed(stored)) return stored;
  const [, id, iv, sealed, tag] = stored.split('.');
  const key = id ? keys.byId.get(id) : undefined;
  if (!key) {
    throw new SecretUnavailable(
      `the signing secret is sealed with key ${id ?? '?'}, which this instance does not have (SECRETS_KEY, SECRETS_KEY_PREVIOUS)`,
    );
  }
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv ?? '', 'base64url'));
    decipher.setAuthTag(Buffer.from(tag ?? '', 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(sealed ?? '', 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    throw new SecretUnavailable(`the signing secret sealed with key ${id} does not open: it was altered`);
  }
}
