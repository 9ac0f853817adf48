import { z } from 'zod';
import { hasInvisibleCharacter, INVISIBLE_BEYOND_TEXT } from '../email';
import { constrainInput } from '../json-schema';
import { codePointName, PLAIN_TEXT_PATTERN } from '../text';

const NAME_REQUIRED = 'Give the role a name.';
const NAME_TOO_LONG = 'The name can be at most 100 characters long.';
const LIST_SEPARATOR_MESSAGE =
  'A role name cannot hold a comma, a semicolon or a vertical bar: they separate role names in an import file.';

/**
 * A role's name as it is stored and shown: Unicode NFC (one spelling of "é"), trimmed, each inner
 * run of white space (a tab, a no-break space) one space. Identity providers name groups
 * "Help Desk" or "Sales – EMEA", and over SCIM a group is a role (issue 39).
 */
export function normaliseRoleName(text: string): string {
  return text.normalize('NFC').trim().replace(/\s+/gu, ' ');
}

/**
 * What makes two role names one: the normalised name, lower-cased ("Help Desk", "help  desk" and
 * "HELP DESK" are one). Stored as `roles.name_key` under a unique index (migration 0028), so the
 * database decides a race; every door that finds a role by name (the CLI, an import's roles
 * cell and default roles) compares this key.
 */
export function roleNameKey(text: string): string {
  return normaliseRoleName(text).toLowerCase();
}

/** The first character a role name may not hold (see RoleNameSchema), or undefined. */
function refusedInRoleName(text: string): string | undefined {
  return [...text].find((character) => hasInvisibleCharacter(character));
}

/**
 * A role's name: 1–100 characters of letters, digits, spaces, punctuation and symbols in any
 * script — not a control, zero-width, direction-override or other invisible character (the
 * e-mail rule's set, email.ts: a name that looks like another must not be another), nor `,` `;`
 * `|`, which separate role names in an import's roles cell and an export's roles column (a name
 * holding one could not be read back). Unique whatever its case and spacing (`roleNameKey`).
 * Parsed to its normalised form.
 */
export const RoleNameSchema = constrainInput(
  z
    .string({ error: NAME_REQUIRED })
    .trim()
    .min(1, NAME_REQUIRED)
    .max(100, NAME_TOO_LONG)
    .refine((text) => refusedInRoleName(text) === undefined, {
      error: (issue) => {
        const found = typeof issue.input === 'string' ? refusedInRoleName(issue.input) : undefined;
        const which = found === undefined ? '' : ` (${codePointName(found)})`;
        return `The name contains an invisible or control character${which}. Type it again without it.`;
      },
    })
    .regex(/^[^,;|]*$/, LIST_SEPARATOR_MESSAGE)
    .transform(normaliseRoleName)
    // NFC and lower-casing can lengthen a few characters; the key has the name's column width,
    // counted in characters (code points) as zod's `max` and the database count them.
    .pipe(z.string().refine((name) => [...roleNameKey(name)].length <= 100, NAME_TOO_LONG)),
  // For the OpenAPI document (json-schema.ts): not blank, none of the characters refused above.
  {
    allOf: [
      { pattern: '\\S' },
      { pattern: PLAIN_TEXT_PATTERN.source },
      { not: { pattern: INVISIBLE_BEYOND_TEXT.source } },
    ],
  },
);
