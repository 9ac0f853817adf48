import { z } from 'zod';
import { constrainInput } from './json-schema';
import { PLAIN_TEXT_PATTERN, refusedCharacter } from './text';

/**
 * Characters that have no place in an e-mail address and are what look-alike tricks are made
 * of: everything free text refuses (controls, format characters, half a surrogate pair, line
 * separators, fillers: see text.ts), and, beyond it, the zero-width joiner and non-joiner and the
 * variation selectors that names may need but an address never does. A collation may ignore them
 * when comparing, so an address carrying one could reach an account by another spelling: they
 * are refused, never stripped.
 */
// Variation selectors are combining marks: inside a class they read as if they combined with the
// character before them, so each range is a class of its own.
export const INVISIBLE_BEYOND_TEXT = /[\u200C\u200D]|[\uFE00-\uFE0F]|[\u{E0100}-\u{E01EF}]/u;

/**
 * The shape an address must have to be stored: zod's own e-mail pattern, with each domain label
 * starting and ending with a letter or digit and at most 63 characters long, as DNS requires
 * (RFC 1035 §2.3.1, §2.3.4). zod's allows a label ending in `-` (`x@a-.example.com`) or of any
 * length, which no mail server can be found for, and which `format: email` in the OpenAPI
 * document refuses.
 */
export const EMAIL_PATTERN =
  /^(?!\.)(?!.*\.\.)([A-Za-z0-9_'+\-.]*)[A-Za-z0-9_+-]@([A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;

export const INVISIBLE_IN_EMAIL_MESSAGE =
  'The e-mail address contains an invisible or control character. Type it again without it.';

export function hasInvisibleCharacter(text: string): boolean {
  return refusedCharacter(text) !== undefined || INVISIBLE_BEYOND_TEXT.test(text);
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
  const field = z
    .string({ error: messages.required })
    .trim()
    .refine((text) => !hasInvisibleCharacter(text), INVISIBLE_IN_EMAIL_MESSAGE)
    .transform(canonicalEmail)
    .pipe(z.string().min(1, messages.required).max(255, messages.tooLong));
  // For the OpenAPI document (json-schema.ts): not blank, and none of the characters refused above.
  return constrainInput(field, {
    minLength: 1,
    maxLength: 255,
    allOf: [
      { pattern: '\\S' },
      { pattern: PLAIN_TEXT_PATTERN.source },
      { not: { pattern: INVISIBLE_BEYOND_TEXT.source } },
    ],
  });
}
