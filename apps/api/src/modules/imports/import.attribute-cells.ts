import { type AttributeType, type AttributeValue, canonicalEmail } from '@app/contracts';
import { parseActive } from '../../imports/reading/index.js';

/**
 * A custom attribute's cell as the import reads it, before the values' plan judges it: a file
 * holds text, the plan takes typed values. A cell that does not read as its type is handed on
 * as text, so the plan refuses it with the sentence every door gives ("… must be a number").
 */

/** A number as a spreadsheet's General format or a JSON export writes it: 1234, -1.5, 2e3 (no grouping). */
const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?$/i;
/**
 * A date as the import reads dates: YYYY-MM-DD, what an XLSX date cell shows under its built-in
 * date format and what exports write; a date-time cell at midnight (format 22) is its day.
 * Day-first or month-first spellings are not guessed: 03/04/2026 is refused.
 */
const DATE = /^(\d{4}-\d{2}-\d{2})(?:[ T]00:00(?::00(?:\.0+)?)?Z?)?$/;
const USER_ID = /^\d{1,15}$/;

/** How a `user` cell named its user: by id, or by the e-mail of an existing account. */
export const userCellEmail = (raw: string): string | null => (raw.includes('@') ? canonicalEmail(raw.trim()) : null);

export type CellReading = { value: AttributeValue } | { unknownUser: true };

/**
 * The cell's value for the plan. `usersByEmail`: the live accounts the chunk's `user` cells name
 * by e-mail (canonical e-mail → id); an e-mail naming none is `unknownUser`.
 */
export function readAttributeCell(
  type: AttributeType,
  raw: string,
  usersByEmail: ReadonlyMap<string, number>,
): CellReading {
  const text = raw.trim();
  switch (type) {
    case 'number':
      return { value: NUMBER.test(text) ? Number(text) : text };
    case 'boolean': {
      // The import's own yes/no words, as its active column reads them.
      const yes = ['yes', 'no', 'true', 'false', '1', '0'].includes(text.toLowerCase()) ? parseActive(text) : undefined;
      return { value: typeof yes === 'boolean' ? yes : text };
    }
    case 'date':
      return { value: DATE.exec(text)?.[1] ?? text };
    case 'user': {
      if (USER_ID.test(text)) return { value: Number(text) };
      const email = userCellEmail(text);
      if (email === null) return { value: text };
      const id = usersByEmail.get(email);
      return id === undefined ? { unknownUser: true } : { value: id };
    }
    default:
      return { value: text };
  }
}
