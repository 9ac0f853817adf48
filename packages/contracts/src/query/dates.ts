export type BoundSide = 'from' | 'to';

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
// The offset sign may arrive as a space: an unencoded '+' in a query string decodes to ' '.
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(?:(Z)|([+\- ])(\d{2}):?(\d{2}))$/i;

// The same rules as JSON Schema patterns (no flags: case spelled out), for the OpenAPI document.
// A calendar date that exists, leap days included (as zod's ISO date pattern writes it).
const EXISTING_DATE =
  '(?:(?:\\d\\d[2468][048]|\\d\\d[13579][26]|\\d\\d0[48]|[02468][048]00|[13579][26]00)-02-29|\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|02-(?:0[1-9]|1\\d|2[0-8])))';
const HOUR_MINUTE = '(?:[01]\\d|2[0-3]):[0-5]\\d';

/**
 * What a date-range bound accepts (see {@link boundInstant}): a date, an RFC 3339 date-time, or
 * one of the other ISO 8601 spellings the server reads (no seconds, a comma before the fraction,
 * an offset without its colon, a `+` sent unencoded that arrives as a space).
 */
export const DATE_BOUND_JSON_SCHEMA = {
  type: 'string',
  maxLength: 40,
  anyOf: [
    { type: 'string', format: 'date', pattern: `^${EXISTING_DATE}$` },
    {
      type: 'string',
      format: 'date-time',
      pattern: `^${EXISTING_DATE}[Tt]${HOUR_MINUTE}:[0-5]\\d(?:\\.\\d{1,9})?(?:[Zz]|[+-]${HOUR_MINUTE})$`,
    },
    {
      type: 'string',
      pattern: `^${EXISTING_DATE}[Tt]${HOUR_MINUTE}(?::[0-5]\\d(?:[.,]\\d{1,9})?)?(?:[Zz]|[+\\- ](?:[01]\\d|2[0-3]):?[0-5]\\d)$`,
    },
  ],
  examples: ['2024-05-01', '2024-05-01T09:30:00Z'],
};

const MS_PER_MINUTE = 60_000;
const MS_PER_DAY = 86_400_000;

/** Milliseconds since the epoch of a UTC calendar moment, or NaN if the date does not exist. */
function utc(year: number, month: number, day: number, h = 0, m = 0, s = 0, ms = 0): number {
  // setUTCFullYear, not Date.UTC: Date.UTC maps years 0–99 to 1900–1999.
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(h, m, s, ms);
  const exists = date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  return exists ? date.getTime() : Number.NaN;
}

function parseDateOnly(text: string): number {
  const match = DATE_ONLY.exec(text);
  if (!match) return Number.NaN;
  const [, y, mo, d] = match.map(Number);
  return utc(y ?? 0, mo ?? 0, d ?? 0);
}

function parseDateTime(text: string): number {
  const match = DATE_TIME.exec(text);
  if (!match) return Number.NaN;
  const [, y, mo, d, h, mi, s = '0', fraction = '', zulu, sign, oh = '0', om = '0'] = match;
  const [hour, minute, second] = [Number(h), Number(mi), Number(s)];
  if (hour > 23 || minute > 59 || second > 59 || Number(oh) > 23 || Number(om) > 59) return Number.NaN;
  const ms = Number(fraction.padEnd(3, '0').slice(0, 3));
  const local = utc(Number(y), Number(mo), Number(d), hour, minute, second, ms);
  const offset = zulu ? 0 : (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om)) * MS_PER_MINUTE;
  return local - offset;
}

export function isDateOnly(text: string): boolean {
  return DATE_ONLY.test(text);
}

/**
 * A `created_between` bound → the instant it stands for, in ms, or NaN when it is not a real
 * date. A date-only bound is a whole UTC day, inclusive: `from` is its first millisecond, `to`
 * its last. A date-time must carry `Z` or an offset, so its instant is never a guess.
 */
export function boundInstant(text: string, side: BoundSide): number {
  if (isDateOnly(text)) {
    const start = parseDateOnly(text);
    return side === 'from' ? start : start + MS_PER_DAY - 1;
  }
  return parseDateTime(text);
}

export function toIsoInstant(ms: number): string {
  return new Date(ms).toISOString();
}
