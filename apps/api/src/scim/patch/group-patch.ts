import { SCIM_SCHEMAS } from '@app/contracts';
import type { Filter } from 'scim2-parse-filter';
import { invalidFilter, invalidPath, invalidValue, mutability, noTarget } from '../scim-error.js';
import { isRecord, member, type PatchOperation, type PatchOpName, readPatchOperations } from './patch-body.js';
import { type PatchPath, parsePath } from './patch-path.js';

export type GroupMemberChange =
  | { op: 'add'; ids: string[] }
  | { op: 'remove'; ids: string[] } // remove these members
  | { op: 'removeAll' } // `remove` with path "members" and no filter/value
  | { op: 'replace'; ids: string[] }; // members replaced by exactly these

export interface GroupPatchPlan {
  displayName?: string;
  externalId?: string | null;
  members: GroupMemberChange[];
}

const READ_ONLY = new Set(['id', 'meta', 'schemas']);

/** A member is a user's id: the product's ids are integers that JavaScript numbers hold exactly. */
const MEMBER_ID = /^[0-9]{1,15}$/;

/**
 * Reads a PatchOp body on a group into a plan: the new name and external id, and the membership
 * changes in order. A group may hold hundreds of thousands of members, so nothing here looks at
 * them; the route runs the plan. Throws a ScimError on the first bad operation (nothing applied).
 */
export function planGroupPatch(body: unknown): GroupPatchPlan {
  const plan: GroupPatchPlan = { members: [] };
  for (const operation of readPatchOperations(body)) planOperation(plan, operation);
  return plan;
}

function planOperation(plan: GroupPatchPlan, { op, path, value, hasValue }: PatchOperation): void {
  if (path !== undefined) {
    planAt(plan, op, parsePath(path, SCIM_SCHEMAS.group), value, hasValue);
    return;
  }
  if (op === 'remove') throw noTarget('A "remove" needs a "path" naming what to remove.');
  if (!isRecord(value)) throw invalidValue(`Without a "path", the value of "${op}" is an object of attributes.`);
  for (const [key, v] of Object.entries(value)) {
    // Okta renames a group with {"id": …, "displayName": …}: read-only attributes inside a value
    // are ignored, as a PUT ignores them (RFC 7644 §3.5.1); a path naming one is refused.
    if (READ_ONLY.has(key.toLowerCase())) continue;
    planAt(plan, op, parsePath(key, SCIM_SCHEMAS.group), v, true);
  }
}

function planAt(plan: GroupPatchPlan, op: PatchOpName, path: PatchPath, value: unknown, hasValue: boolean): void {
  const attr = path.attr ?? '';
  if (attr === 'members') {
    const change = memberChange(op, path, value, hasValue);
    if (change) plan.members.push(change);
    return;
  }
  if (READ_ONLY.has(attr)) throw mutability(`"${path.text}" is read-only.`);
  if (attr !== 'displayname' && attr !== 'externalid')
    throw invalidPath(`"${path.text}" is not an attribute of a Group.`);
  if (path.filter !== undefined || path.sub !== undefined) {
    throw invalidPath(`"${path.text}": "${attr}" is a single value with no sub-attributes.`);
  }
  if (attr === 'displayname') {
    if (op === 'remove') throw mutability('"displayName" is required and cannot be removed.');
    if (typeof value !== 'string' || value.trim() === '')
      throw invalidValue(`"${path.text}" takes a non-empty string.`);
    plan.displayName = value.trim();
    return;
  }
  if (op === 'remove' || value === null) plan.externalId = null;
  else if (typeof value === 'string') plan.externalId = value;
  else throw invalidValue(`"${path.text}" takes a string.`);
}

function memberChange(op: PatchOpName, path: PatchPath, value: unknown, hasValue: boolean): GroupMemberChange | null {
  if (path.sub !== undefined) throw invalidPath(`"${path.text}": members are written whole, not by sub-attribute.`);
  if (path.filter !== undefined) {
    // Entra: {"op":"Remove","path":"members[value eq \"12\"]"}. Only a remove has a meaning that
    // needs no member list: the filter names the ids.
    if (op !== 'remove') throw invalidPath(`"${path.text}": a filtered "members" path can only be removed.`);
    return { op: 'remove', ids: unique(idsOfFilter(path.filter, path.text)) };
  }
  if (op === 'remove') {
    // Okta's form names the members in the value; without one every member goes.
    if (!hasValue || value === null) return { op: 'removeAll' };
    const ids = readMemberIds(value);
    return ids.length ? { op: 'remove', ids } : null;
  }
  const ids = value === null ? [] : readMemberIds(value);
  if (op === 'replace') return { op: 'replace', ids };
  return ids.length ? { op: 'add', ids } : null;
}

function readMemberIds(value: unknown): string[] {
  const list = Array.isArray(value) ? value : [value];
  return unique(
    list.map((m) => {
      const id = isRecord(m) ? member(m, 'value').value : undefined;
      if (typeof id !== 'string' || !MEMBER_ID.test(id)) {
        throw invalidValue(
          `A member is {"value": "<user id>"} with the user's id as a string of digits (got ${JSON.stringify(m)?.slice(0, 80)}).`,
        );
      }
      return id;
    }),
  );
}

/** `value eq "12"`, or several joined by `or`: any other filter would need the member list. */
function idsOfFilter(filter: Filter, where: string): string[] {
  if (filter.op === 'or') return filter.filters.flatMap((f) => idsOfFilter(f, where));
  if (filter.op === 'eq' && filter.attrPath.toLowerCase() === 'value') {
    const id = filter.compValue;
    if (typeof id === 'string' && MEMBER_ID.test(id)) return [id];
    throw invalidValue(`"${where}": a member's value is a user's id, a string of digits.`);
  }
  throw invalidFilter(`"${where}": members are selected by \`value eq "<id>"\` (joined by "or") only.`);
}

const unique = (ids: string[]) => [...new Set(ids)];
