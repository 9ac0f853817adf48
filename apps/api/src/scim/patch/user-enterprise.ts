import { invalidPath, invalidValue } from '../scim-error.js';
import { isRecord, member, type PatchOpName } from './patch-body.js';
import type { PatchPath } from './patch-path.js';

/** The enterprise extension's attributes (RFC 7643 §4.3), by their canonical spelling. */
const FIELDS = ['employeeNumber', 'costCenter', 'organization', 'division', 'department', 'manager'] as const;

/**
 * Applies one operation on the enterprise extension to its fields (a copy is returned). Which of
 * them the product keeps is the routes' mapping; here every field of the schema is read and typed.
 */
export function patchEnterprise(
  current: Record<string, unknown>,
  op: PatchOpName,
  path: PatchPath,
  value: unknown,
): Record<string, unknown> {
  const next = { ...current };
  if (path.filter !== undefined)
    throw invalidPath(`"${path.text}": the enterprise extension has no multi-valued attribute.`);
  if (path.attr === undefined) {
    // The bare extension URN: its value is an object of fields, merged (add/replace) or all removed.
    if (op === 'remove') return {};
    if (!isRecord(value)) throw invalidValue(`"${path.text}" takes an object of the extension's attributes.`);
    for (const [key, v] of Object.entries(value)) setField(next, op, { ...path, attr: key.toLowerCase() }, v);
    return next;
  }
  setField(next, op, path, value);
  return next;
}

function setField(target: Record<string, unknown>, op: PatchOpName, path: PatchPath, value: unknown): void {
  const field = FIELDS.find((f) => f.toLowerCase() === path.attr);
  if (field === undefined)
    throw invalidPath(`"${path.text}": the enterprise extension has no attribute "${path.attr}".`);
  if (field === 'manager') {
    if (path.sub !== undefined && path.sub !== 'value') {
      throw invalidPath(`"${path.text}": only the manager's "value" can be written.`);
    }
    const id = op === 'remove' ? null : readManager(value, path.text);
    if (id === null) delete target.manager;
    else target.manager = { value: id };
    return;
  }
  if (path.sub !== undefined) throw invalidPath(`"${path.text}": "${field}" has no sub-attributes.`);
  if (op === 'remove' || value === null) {
    delete target[field];
    return;
  }
  if (typeof value !== 'string') throw invalidValue(`"${path.text}" takes a string.`);
  target[field] = value;
}

/**
 * The manager's id: Entra sends it bare (`"value": "26118915-…"`), RFC 7643 as `{value}`. An
 * empty or null one unsets the manager, as Entra clears it.
 */
function readManager(value: unknown, where: string): string | null {
  const given = isRecord(value) ? member(value, 'value') : { found: true, value };
  if (!given.found) throw invalidValue(`"${where}" takes the manager's id as a string or {"value": id}.`);
  const raw = given.value;
  if (raw === null || raw === '') return null;
  if (typeof raw !== 'string') throw invalidValue(`"${where}" takes the manager's id as a string or {"value": id}.`);
  return raw;
}
