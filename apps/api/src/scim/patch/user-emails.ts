import { scimBoolean } from '@app/contracts';
import type { Filter } from 'scim2-parse-filter';
import { invalidPath, invalidValue, noTarget } from '../scim-error.js';
import { isRecord, member, type PatchOpName } from './patch-body.js';
import { matchesFilter, type PatchPath } from './patch-path.js';

export interface ScimEmailValue {
  value: string;
  type?: string;
  primary?: boolean;
}

/** Sub-attributes of `emails` (RFC 7643 §4.1.2); `display` is accepted and not kept. */
const SUBS = ['value', 'type', 'primary', 'display'] as const;
type Sub = (typeof SUBS)[number];

/**
 * Applies one operation on `emails` (RFC 7644 §3.5.2) and returns the new list: `add` appends
 * (an address already there is updated, not repeated), `replace` with a value filter replaces
 * what it matches and fails with noTarget when it matches nothing, `remove` with a filter removes
 * what it matches (nothing matched: nothing to do, so an identity provider's retry succeeds).
 */
export function patchEmails(
  current: ScimEmailValue[],
  op: PatchOpName,
  path: PatchPath,
  value: unknown,
  hasValue: boolean,
): ScimEmailValue[] {
  const list = current.map((e) => ({ ...e }));
  const sub = path.sub === undefined ? undefined : readSub(path);
  const touched = new Set<ScimEmailValue>();
  let next: ScimEmailValue[];
  if (sub !== undefined) next = patchSub(list, op, path, sub, value, touched);
  else if (path.filter !== undefined) next = patchFiltered(list, op, path, path.filter, value, touched);
  else next = patchWhole(list, op, value, hasValue, touched);
  return settlePrimary(next, touched);
}

function readSub(path: PatchPath): Sub {
  const sub = SUBS.find((s) => s === path.sub);
  if (sub === undefined) throw invalidPath(`"${path.text}": emails have no sub-attribute "${path.sub}".`);
  return sub;
}

function patchWhole(
  list: ScimEmailValue[],
  op: PatchOpName,
  value: unknown,
  hasValue: boolean,
  touched: Set<ScimEmailValue>,
): ScimEmailValue[] {
  if (op === 'remove') {
    // Okta's form names the values to take out; without a value the attribute is emptied.
    if (!hasValue || value === null) return [];
    const gone = new Set(readEmails(value).map((e) => e.value.toLowerCase()));
    return list.filter((e) => !gone.has(e.value.toLowerCase()));
  }
  const incoming = value === null ? [] : readEmails(value);
  const next = op === 'replace' ? [] : list;
  // Addresses compare without case (RFC 7643 §4.1.2: not case-exact); a map keeps a long list linear.
  const byAddress = new Map(next.map((e) => [e.value.toLowerCase(), e]));
  for (const email of incoming) {
    const same = byAddress.get(email.value.toLowerCase());
    if (same) Object.assign(same, email);
    else {
      next.push(email);
      byAddress.set(email.value.toLowerCase(), email);
    }
    touched.add(same ?? email);
  }
  return next;
}

function patchFiltered(
  list: ScimEmailValue[],
  op: PatchOpName,
  path: PatchPath,
  filter: Filter,
  value: unknown,
  touched: Set<ScimEmailValue>,
): ScimEmailValue[] {
  const matched = list.filter((e) => matchesFilter(filter, e));
  if (op === 'remove') return list.filter((e) => !matched.includes(e));
  if (matched.length === 0) {
    if (op === 'replace') throw noTarget(`"${path.text}" matches no e-mail to replace.`);
    const created = readEmail({ ...termsOf(filter), ...(isRecord(value) ? value : {}) });
    touched.add(created);
    return [...list, created];
  }
  if (op === 'replace') {
    const replacement = readEmail(value);
    return list.map((e) => {
      if (!matched.includes(e)) return e;
      const copy = { ...replacement };
      touched.add(copy);
      return copy;
    });
  }
  if (!isRecord(value)) throw invalidValue(`"${path.text}": the value is an e-mail object.`);
  for (const e of matched) {
    for (const sub of SUBS) {
      const given = member(value, sub);
      if (given.found) setSub(e, sub, given.value, path.text);
    }
    touched.add(e);
  }
  return list;
}

function patchSub(
  list: ScimEmailValue[],
  op: PatchOpName,
  path: PatchPath,
  sub: Sub,
  value: unknown,
  touched: Set<ScimEmailValue>,
): ScimEmailValue[] {
  const filter = path.filter;
  const targets = filter === undefined ? list : list.filter((e) => matchesFilter(filter, e));
  if (op === 'remove') {
    if (sub === 'value') return list.filter((e) => !targets.includes(e));
    for (const e of targets) if (sub === 'type' || sub === 'primary') delete e[sub];
    return list;
  }
  if (targets.length === 0) {
    // Entra adds `emails[type eq "work"].value` to a user with no work address: a new value
    // made of the filter's terms. `replace` must not invent one (RFC 7644 §3.5.2.3: noTarget).
    if (op === 'replace' && filter !== undefined) throw noTarget(`"${path.text}" matches no e-mail to replace.`);
    if (sub !== 'value') throw noTarget(`"${path.text}": there is no e-mail to set "${sub}" on.`);
    const created = readEmail({ ...(filter ? termsOf(filter) : {}), value });
    touched.add(created);
    return [...list, created];
  }
  for (const e of targets) {
    setSub(e, sub, value, path.text);
    touched.add(e);
  }
  return list;
}

function setSub(e: ScimEmailValue, sub: Sub, value: unknown, where: string): void {
  if (sub === 'display') return;
  if (sub === 'primary') {
    const parsed = scimBoolean.safeParse(value);
    if (!parsed.success) throw invalidValue(`"${where}" takes a boolean.`);
    e.primary = parsed.data;
    return;
  }
  if (typeof value !== 'string' || (sub === 'value' && value.trim() === '')) {
    throw invalidValue(`"${where}" takes a ${sub === 'value' ? 'non-empty ' : ''}string.`);
  }
  e[sub] = value.trim();
}

/** The `eq` terms of a filter, as the values a new e-mail must have to be what the path names. */
function termsOf(filter: Filter): Record<string, unknown> {
  if (filter.op === 'and') return Object.assign({}, ...filter.filters.map(termsOf));
  if (filter.op === 'eq') return { [filter.attrPath.toLowerCase()]: filter.compValue };
  return {};
}

function readEmails(value: unknown): ScimEmailValue[] {
  return (Array.isArray(value) ? value : [value]).map(readEmail);
}

/** An e-mail value as clients send it: an object, or (leniently) a bare address. */
function readEmail(raw: unknown): ScimEmailValue {
  const obj = typeof raw === 'string' ? { value: raw } : raw;
  if (!isRecord(obj)) throw invalidValue('An e-mail is an object with a "value".');
  const email: ScimEmailValue = { value: '' };
  for (const sub of SUBS) {
    const given = member(obj, sub);
    if (given.found && given.value !== null) setSub(email, sub, given.value, `emails.${sub}`);
  }
  if (email.value === '') throw invalidValue('An e-mail needs a non-empty "value".');
  return email;
}

/** At most one primary e-mail (RFC 7643 §2.4): the one this operation made primary wins. */
function settlePrimary(list: ScimEmailValue[], touched: Set<ScimEmailValue>): ScimEmailValue[] {
  const primaries = list.filter((e) => e.primary === true);
  if (primaries.length < 2) return list;
  const winner = primaries.filter((e) => touched.has(e)).at(-1) ?? primaries.at(-1);
  for (const e of primaries) if (e !== winner) e.primary = false;
  return list;
}
