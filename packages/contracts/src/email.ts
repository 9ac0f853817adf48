import { z } from 'zod';

/**
 * Characters that have no place in an e-mail address and are what look-alike tricks are made
 * of: controls (C0, C1, NUL), format characters (zero-width space and joiners, bidi controls,
 * soft hyphen, word joiner, BOM, tags), line/paragraph separators, variation selectors, the
 * combining grapheme joiner and the Hangul fillers that render as nothing. A collation may
 * ignore them when comparing, so an address carrying one could reach an account by another
 * spelling: they are refused, never stripped.
 */
// Combining marks (the joiner, variation selectors) sit outside the class: inside one they read
// as if they combined with the character before them.
// \p{Cs}: half of a surrogate pair without its other half is no character at all (MySQL's
// utf8mb4 cannot store it, and a login that recorded it failed with a 500).
const INVISIBLE =
  /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}\u115F\u1160\u3164\uFFA0]|\u034F|[\uFE00-\uFE0F]|[\u{E0100}-\u{E01EF}]/u;

export const INVISIBLE_IN_EMAIL_MESSAGE =
  'The e-mail address contains an invisible or control character. Type it again without it.';

export function hasInvisibleCharacter(text: string): boolean {
  return INVISIBLE.test(text);
}

/**
 * One spelling per address: trimmed, Unicode NFKC (full-width and compatibility forms folded,
 * accents composed), lower-cased. Every door that accepts an e-mail (login, create, update, the
 * CLI, the configuration) stores and compares this form.
 */
export function canonicalEmail(text: string): string {
  return text.trim().normalize('NFKC').toLowerCase();
}

interface EmailMessages {
  required: string;
  tooLong: string;
}

/**
 * An e-mail as typed → its canonical form: refuses invisible and control characters (422),
 * then canonicalises and checks length. Shape checks (`z.email`) are piped after by forms that
 * need a valid address; login accepts any spelling so that no existing account is locked out.
 */
export function canonicalEmailField(messages: EmailMessages) {
  return z
    .string({ error: messages.required })
    .trim()
    .refine((text) => !hasInvisibleCharacter(text), INVISIBLE_IN_EMAIL_MESSAGE)
    .transform(canonicalEmail)
    .pipe(z.string().min(1, messages.required).max(255, messages.tooLong));
}
