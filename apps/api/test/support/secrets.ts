import { TOKEN_PREFIX } from '../../src/auth/api-tokens.js';
import { PASSWORD } from './given.js';

/**
 * Every password the API tests type into a login, a create, an update or the CLI. Only the
 * distinctive ones: a literal such as 'short' or 'secret' (sent to be refused) would match
 * ordinary words. A test that types a new password adds it here, or the scan cannot see it
 * (test/fuzz types PASSWORD and 'another-Pass-99').
 */
export const TEST_PASSWORDS: readonly string[] = [
  PASSWORD,
  'a-strong-password',
  'another-Pass-99',
  'another-password',
  'another-new-password',
  'bad-password-1',
  'brand-new-pass-1',
  'brand-new-password',
  'first-Secret-1234',
  'fresh-pass-42',
  'long-enough-pw',
  'mine-now-42',
  'not-the-password',
  'ops-password-1',
  'password-123',
  'second-Secret-5678',
  'taken-over-42',
  'wrong-one-1',
  'wrong-one-2',
  'wrong-password',
  'wrong-Secret-0000',
  // The single sign-on client secret (oidc-provider.ts): written, never answered, logged or audited.
  'a-client-secret-the-tests-use-41',
];

export type SecretKind = 'password' | 'hash' | 'token' | 'session' | 'webhook' | 'link' | 'totp' | 'recovery';

export interface SecretHit {
  kind: SecretKind;
  /** Where in the text it starts, and the secret itself (to mask it in a report). */
  index: number;
  secret: string;
}

/**
 * A stored password: our own `scrypt$N$r$p$salt$hash` (apps/api/src/auth/password.ts), or an
 * imported bcrypt or argon2id hash, which a user's row holds until its first sign-in.
 */
const HASH =
  /scrypt\$\d+\$\d+\$\d+\$[A-Za-z0-9+/=]*\$?[A-Za-z0-9+/=]*|\$2[aby]\$\d\d\$[./A-Za-z0-9]{53}|\$argon2id\$v=19\$[^\s"]+/g;
/** A personal API token: the prefix and 32 random bytes in base64url (43 characters). */
const TOKEN = new RegExp(`${TOKEN_PREFIX}[A-Za-z0-9_-]{20,}`, 'g');

/**
 * A webhook endpoint's signing secret, as Standard Webhooks writes it: `whsec_` and the key in
 * base64 (24 bytes or more: 32 characters and up).
 */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';
const WEBHOOK_SECRET = new RegExp(`${WEBHOOK_SECRET_PREFIX}[A-Za-z0-9+/]{24,}={0,2}`, 'g');

/**
 * A password-reset link with its token (`…/reset-password/` and 32 random bytes in base64url): a
 * mail carries it, and an administrator's answer when mail is off; nothing else ever shows it.
 */
const RESET_LINK = /\/reset-password\/[A-Za-z0-9_-]{43}/g;

/** An invitation link with its token (`…/invite/` and 32 random bytes in base64url): the same. */
const INVITE_LINK = /\/invite\/[A-Za-z0-9_-]{43}/g;

/**
 * A TOTP secret (apps/api/src/auth/totp.ts: 20 random bytes, 32 characters of base32), bare or in
 * its `otpauth://` URL: only the set-up's answer shows it.
 */
const TOTP_SECRET = /(?<![A-Za-z0-9])[A-Z2-7]{32}(?![A-Za-z0-9])/g;

/**
 * A recovery code as handed out (`xxxxx-xxxxx`, base32's lower-case alphabet): only the
 * confirmation's answer shows them. Only those with a digit are looked for (seven in eight of
 * them), so that words such as `hello-world` are not taken for one; nor one followed by `@`, or
 * by `%40` as an otpauth URL encodes it: that is an e-mail address's local part. The tests' own
 * addresses (support/given.ts) put a dot between their counter and process id, so that no part of
 * them has the form.
 */
const RECOVERY_CODE = /(?<![a-z0-9-])(?=[a-z-]*[2-7])[a-z2-7]{5}-[a-z2-7]{5}(?![a-z0-9@-]|%40)/g;

/** The length of a session id or of a token's random part: 32 random bytes in base64url. */
export const SECRET_LENGTH = 43;
const RUN = new RegExp(`[A-Za-z0-9_-]{${SECRET_LENGTH},}`, 'g');

export interface KnownSecrets {
  passwords: readonly string[];
  /** Session ids seen in a Set-Cookie, and the random part of every token sent (43 characters each). */
  randoms: ReadonlyMap<string, 'session' | 'token'>;
}

/**
 * The secrets in `text`: a known password verbatim, a known session id or token body
 * anywhere (even without its prefix), anything of the form of a password hash, an API token,
 * a webhook signing secret or a password-reset link. Every secret here is plain ASCII, which JSON never escapes (but a
 * `/`, which it may write as `\/`: JSON.stringify does not), so JSON is read as is.
 */
export function findSecrets(text: string, known: KnownSecrets): SecretHit[] {
  const hits: SecretHit[] = [];
  for (const m of text.matchAll(HASH)) hits.push({ kind: 'hash', index: m.index, secret: m[0] });
  for (const m of text.matchAll(TOKEN)) hits.push({ kind: 'token', index: m.index, secret: m[0] });
  for (const m of text.matchAll(WEBHOOK_SECRET)) hits.push({ kind: 'webhook', index: m.index, secret: m[0] });
  for (const m of text.matchAll(RESET_LINK)) hits.push({ kind: 'link', index: m.index, secret: m[0] });
  for (const m of text.matchAll(INVITE_LINK)) hits.push({ kind: 'link', index: m.index, secret: m[0] });
  for (const m of text.matchAll(TOTP_SECRET)) hits.push({ kind: 'totp', index: m.index, secret: m[0] });
  for (const m of text.matchAll(RECOVERY_CODE)) hits.push({ kind: 'recovery', index: m.index, secret: m[0] });
  for (const secret of known.passwords) {
    for (let i = text.indexOf(secret); i !== -1; i = text.indexOf(secret, i + secret.length)) {
      hits.push({ kind: 'password', index: i, secret });
    }
  }
  // A set lookup per 43-character window of each long base64url run: as fast with thousands of
  // known ids as with one, where searching for each id would not be.
  if (known.randoms.size > 0) {
    for (const m of text.matchAll(RUN)) {
      for (let i = 0; i + SECRET_LENGTH <= m[0].length; i++) {
        const window = m[0].slice(i, i + SECRET_LENGTH);
        const kind = known.randoms.get(window);
        const prefixed = m[0].slice(Math.max(0, i - TOKEN_PREFIX.length), i) === TOKEN_PREFIX;
        // A whole token was reported above by its form.
        if (kind && !(kind === 'token' && prefixed)) hits.push({ kind, index: m.index + i, secret: window });
      }
    }
  }
  return hits;
}

/** Up to 60 characters around a hit, the secret itself masked, on one line. */
export function excerpt(text: string, hit: SecretHit, width = 60): string {
  const masked = `${hit.secret.slice(0, 4)}${'*'.repeat(Math.max(0, Math.min(hit.secret.length, 24) - 4))}`;
  const room = Math.max(0, width - masked.length);
  const before = text.slice(Math.max(0, hit.index - Math.ceil(room / 2)), hit.index);
  const after = text.slice(hit.index + hit.secret.length, hit.index + hit.secret.length + Math.floor(room / 2));
  return `${before}${masked}${after}`.replace(/\s+/g, ' ');
}
