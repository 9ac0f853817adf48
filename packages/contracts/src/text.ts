import { z } from 'zod';
import { isPlainObject } from './query/normalise';

/**
 * The one rule for free text, at every door (forms, tRPC, REST, the CLI, list queries): what a
 * person types may not hold a character that is invisible or controls how text is shown.
 *
 * - `\p{Cc}` controls: C0 (NUL, tab, line breaks, escape), DEL and C1 (U+0080–U+009F, NEL
 *   U+0085 among them). Every free-text field is one line; none has a use for them.
 * - `\p{Cs}` half of a surrogate pair without its other half: no character at all. JSON.stringify
 *   writes it as the escape `\ud800`, which MariaDB's JSON_VALID refuses (a 500), and SQLite
 *   stores U+FFFD in its place. A whole pair (an emoji) is one code point here, never refused.
 * - `\p{Cf}` format characters: the zero-width space, word joiner and BOM; the soft hyphen; the
 *   direction marks (U+200E, U+200F, U+061C), embeddings and overrides (U+202A–U+202E) and
 *   isolates (U+2066–U+2069), which make `Mallory\u202Etxt.exe` show as `Malloryexe.txt`; the
 *   tag characters that smuggle hidden ASCII.
 * - line and paragraph separators (U+2028, U+2029), the combining grapheme joiner (U+034F) and
 *   the Hangul fillers that render as nothing (U+115F, U+1160, U+3164, U+FFA0).
 *
 * Kept: the zero-width non-joiner and joiner (U+200C, U+200D), which Persian and Indic names
 * and emoji sequences (a family, a rainbow flag) need, and variation selectors (an emoji's
 * colour form, the ideographic variants of Japanese names). An e-mail address refuses those
 * too (email.ts).
 */
const REFUSED_CLASS = String.raw`\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}\u034F\u115F\u1160\u3164\uFFA0`;
const KEPT_FORMAT_CLASS = String.raw`\u200C\u200D`;

/**
 * Matches text with none of the refused characters. A pattern, not a refinement, so the OpenAPI
 * document shows the rule as the field's `pattern` (ECMAScript with the `u` flag, as ajv reads it).
 */
export const PLAIN_TEXT_PATTERN = new RegExp(`^(?:[^${REFUSED_CLASS}]|[${KEPT_FORMAT_CLASS}])*$`, 'u');

const REFUSED_CHARACTER = new RegExp(`(?![${KEPT_FORMAT_CLASS}])[${REFUSED_CLASS}]`, 'u');

/** The first character of `text` that free text may not hold, or undefined. */
export function refusedCharacter(text: string): string | undefined {
  return REFUSED_CHARACTER.exec(text)?.[0];
}

/** `U+202E`: how a message names a character that cannot be shown. */
export function codePointName(character: string): string {
  return `U+${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** "The name contains an invisible or control character (U+202E). …", naming the first one found. */
export function refusedTextMessage(label: string, text: unknown): string {
  const found = typeof text === 'string' ? refusedCharacter(text) : undefined;
  const which = found === undefined ? '' : ` (${codePointName(found)})`;
  return `The ${label} contains an invisible or control character${which}. Type it again without it.`;
}

/** The text rule as a string check: chain it where a field needs other checks first or after. */
export function plainTextCheck<S extends z.ZodString>(schema: S, label: string): S {
  return schema.regex(PLAIN_TEXT_PATTERN, { error: (issue) => refusedTextMessage(label, issue.input) }) as S;
}

/**
 * A free-text field: a string, trimmed (surrounding spaces, tabs and line breaks go), that
 * refuses the characters above with a message naming `label` and the character. Chain lengths
 * after it: `plainText('name', { error: 'Enter a name.' }).min(1, …).max(100, …)`.
 */
export function plainText(label: string, params: { error?: string } = {}) {
  return plainTextCheck(z.string(params).trim(), label);
}

/**
 * Passwords may hold any character that can be encoded: a space, a tab, a direction mark. Not
 * NUL (hashing libraries and tools written in C stop at it, so a password would not survive a
 * change of hash) nor half a surrogate pair (it has no UTF-8 form: it would be hashed as U+FFFD,
 * one password under many spellings).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing NUL is the point
export const ENCODABLE_TEXT_PATTERN = /^[^\p{Cs}\u0000]*$/u;

export const UNENCODABLE_PASSWORD_MESSAGE =
  'The password contains a NUL character or half of a surrogate pair, which cannot be stored. Type it again without it.';

function labelOf(path: ReadonlyArray<string | number>): string {
  if (path[0] === 'q') return 'search';
  if (path[0] === 'filters') return 'filter';
  return 'text';
}

const MAX_DEPTH = 16;

/**
 * Every string in a normalised list query that breaks the text rule, with its path and message.
 * A list query refuses them before anything else is judged, whatever the key: no name, e-mail or
 * address is searched for by one, and SQLite reads a statement as a C string, so a NUL inside a
 * quoted search term once ended the statement early (a 500 the API fuzzer found).
 */
export function refusedTextIssues(
  value: unknown,
  path: Array<string | number> = [],
): Array<{ path: Array<string | number>; message: string }> {
  if (typeof value === 'string') {
    return refusedCharacter(value) === undefined ? [] : [{ path, message: refusedTextMessage(labelOf(path), value) }];
  }
  if (path.length >= MAX_DEPTH) return [];
  if (Array.isArray(value)) return value.flatMap((item, i) => refusedTextIssues(item, [...path, i]));
  if (isPlainObject(value)) {
    return Object.entries(value).flatMap(([key, item]) => refusedTextIssues(item, [...path, key]));
  }
  return [];
}
