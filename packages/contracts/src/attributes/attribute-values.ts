import { canonicalEmail, EMAIL_PATTERN, hasInvisibleCharacter } from '../email';
import { refusedCharacter } from '../text';
import { compilePattern } from './attribute-pattern';
import { ATTRIBUTE_TEXT_MAX, type AttributeType, type AttributeValidators } from './attribute-schema';

/**
 * One value of a custom attribute, judged by the same function at every door (the API's
 * create, update, bulk and import, the CLI, the SPA's form): a value, stored as its canonical
 * form, or the sentence that says why not. The sentence names the attribute by its label.
 */

/** A stored value: text (string, email, url, enum, date as YYYY-MM-DD), a number, a yes/no, or a user id. */
export type AttributeValue = string | number | boolean;

/** What judging a value needs of a definition. */
export interface AttributeRules {
  label: string;
  type: AttributeType;
  values: readonly string[] | null;
  required: boolean;
  validators: AttributeValidators;
}

export type ValueCheck = { ok: true; value: AttributeValue | null } | { ok: false; message: string };

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A calendar date written YYYY-MM-DD (2026-02-30 is not one). */
export function isCalendarDate(text: string): boolean {
  const m = ISO_DATE.exec(text);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  // setUTCFullYear, not Date.UTC: Date.UTC reads the years 0 to 99 as 1900 to 1999.
  const date = new Date(0);
  date.setUTCFullYear(y, mo - 1, d);
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

const fail = (message: string): ValueCheck => ({ ok: false, message });

function checkText(rules: AttributeRules, text: string): ValueCheck {
  const { label, validators: v } = rules;
  const length = [...text].length;
  if (length > ATTRIBUTE_TEXT_MAX) return fail(`${label} can be at most ${ATTRIBUTE_TEXT_MAX} characters long.`);
  if (v.min_length !== undefined && length < v.min_length) {
    return fail(`${label} must be at least ${v.min_length} characters long.`);
  }
  if (v.max_length !== undefined && length > v.max_length) {
    return fail(`${label} can be at most ${v.max_length} characters long.`);
  }
  if (v.pattern !== undefined && !compilePattern(v.pattern)?.matches(text)) {
    return fail(`${label} does not have the expected form.`);
  }
  return { ok: true, value: text };
}

function checkBounds(rules: AttributeRules, value: number | string): ValueCheck {
  const { label, validators: v } = rules;
  if (v.min !== undefined && typeof v.min === typeof value && value < v.min) {
    return fail(`${label} must be ${v.min} or more.`);
  }
  if (v.max !== undefined && typeof v.max === typeof value && value > v.max) {
    return fail(`${label} must be ${v.max} or less.`);
  }
  return { ok: true, value };
}

/**
 * Judges `raw` as a value of the attribute: `null` (or an empty text) clears it, refused for a
 * required attribute; text is trimmed; an e-mail is stored in its one spelling; an enumeration's
 * value matches whatever its letter case and is stored as declared.
 */
export function checkAttributeValue(rules: AttributeRules, raw: unknown): ValueCheck {
  const { label, type } = rules;
  const value = typeof raw === 'string' ? raw.trim() : raw;
  if (value === null || value === undefined || value === '') {
    return rules.required ? fail(`${label} is required.`) : { ok: true, value: null };
  }
  switch (type) {
    case 'string':
    case 'email':
    case 'url': {
      if (typeof value !== 'string') return fail(`${label} must be text.`);
      if (refusedCharacter(value) !== undefined) {
        return fail(`${label} contains an invisible or control character. Type it again without it.`);
      }
      if (type === 'email') {
        const email = canonicalEmail(value);
        if (hasInvisibleCharacter(email) || !EMAIL_PATTERN.test(email)) {
          return fail(`${label} must be an e-mail address, such as ada@example.com.`);
        }
        return checkText(rules, email);
      }
      if (type === 'url' && !isWebAddress(value)) {
        return fail(`${label} must be a web address starting with https:// or http://.`);
      }
      return checkText(rules, value);
    }
    case 'number': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return fail(`${label} must be a number.`);
      return checkBounds(rules, value);
    }
    case 'boolean':
      return typeof value === 'boolean' ? { ok: true, value } : fail(`${label} must be true or false.`);
    case 'date': {
      if (typeof value !== 'string' || !isCalendarDate(value)) return fail(`${label} must be a date, as YYYY-MM-DD.`);
      return checkBounds(rules, value);
    }
    case 'enum': {
      const choices = rules.values ?? [];
      const found =
        typeof value === 'string' ? choices.find((c) => c.toLowerCase() === value.toLowerCase()) : undefined;
      return found === undefined ? fail(`${label} must be one of: ${choices.join(', ')}.`) : { ok: true, value: found };
    }
    case 'user': {
      if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
        return fail(`${label} must name a user by id.`);
      }
      // That the user exists and is not deleted is the server's to say: it needs the database.
      return { ok: true, value };
    }
  }
}

function isWebAddress(text: string): boolean {
  // The URL parser also reads `http:example.com` and `https:/example.com` as web addresses, but a
  // browser resolves such an href against the page: the value must say `//` itself.
  if (!/^https?:\/\//i.test(text)) return false;
  try {
    const url = new URL(text);
    return (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname !== '';
  } catch {
    return false;
  }
}
