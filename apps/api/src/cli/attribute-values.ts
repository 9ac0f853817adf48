import { attributePath, canonicalEmail, type UserAttributesInput } from '@app/contracts';
import type { Database } from '../db/database.js';
import { listDefinitions } from '../modules/attributes/attributes.repository.js';
import { readAttributeCell, userCellEmail } from '../modules/imports/import.attribute-cells.js';
import { findByEmail } from '../modules/users/users.write-repository.js';
import { CliError } from './cli-error.js';

/**
 * `--attribute key=value` (repeatable) as the user handlers' `attributes`: each value typed by
 * its definition as an import reads a cell (a number, yes/no, a date YYYY-MM-DD, a user by id or
 * e-mail), then judged by the handlers like any other door's. `key=` clears the value.
 */
export async function attributesOption(
  db: Database,
  given: readonly string[],
): Promise<{ attributes: UserAttributesInput; flags: Record<string, string> } | undefined> {
  if (given.length === 0) return undefined;
  const definitions = new Map((await listDefinitions(db)).map((d) => [d.key, d]));
  const attributes: UserAttributesInput = {};
  const flags: Record<string, string> = {};
  for (const pair of given) {
    const at = pair.indexOf('=');
    if (at < 1)
      throw new CliError(`--attribute: give a key and a value as key=value (department=Sales), not "${pair}".`);
    const key = pair.slice(0, at).trim();
    const raw = pair.slice(at + 1);
    if (key in attributes) throw new CliError(`--attribute: ${key} is given twice.`);
    // A refusal is named by the flag and the key it came with.
    flags[attributePath(key)] = `attribute ${key}`;
    const definition = definitions.get(key);
    if (!definition || raw.trim() === '') {
      // An unknown key is the handlers' to refuse, in their words.
      attributes[key] = raw.trim() === '' ? null : raw;
      continue;
    }
    const email = definition.type === 'user' ? userCellEmail(raw) : null;
    const user = email ? await findByEmail(db, null, canonicalEmail(email)) : null;
    const known = new Map(user ? [[canonicalEmail(user.email), user.id]] : []);
    const read = readAttributeCell(definition.type, raw, known);
    if ('unknownUser' in read) {
      throw new CliError(`--attribute ${key}: ${definition.label} must name a user who exists and is not deleted.`);
    }
    attributes[key] = read.value;
  }
  return { attributes, flags };
}
