import { ownEntry, SCIM_SCHEMAS, scimBoolean } from '@app/contracts';
import { invalidPath, invalidValue, mutability, noTarget } from '../scim-error.js';
import { isRecord, type PatchOperation, type PatchOpName, readPatchOperations } from './patch-body.js';
import { type PatchPath, parsePath } from './patch-path.js';
import { patchEmails, type ScimEmailValue } from './user-emails.js';
import { patchEnterprise } from './user-enterprise.js';

/** What a SCIM client may write of a user, as the routes read it from the product and write it back. */
export interface ScimUserWritable {
  userName: string;
  externalId: string | null;
  name: { formatted: string | null; givenName: string | null; familyName: string | null };
  displayName: string | null;
  emails: ScimEmailValue[];
  active: boolean;
  /** Enterprise extension fields by their name (employeeNumber, costCenter, organization,
   *  division, department, manager as {value}), whatever is set. */
  enterprise: Record<string, unknown>;
  /** A new password (write-only: never read back), when an operation sets one. */
  password?: string;
}

/** Read-only on a user (RFC 7643 §3.1, §4.1.2): a path naming them is refused. */
const READ_ONLY = new Set(['id', 'meta', 'groups', 'schemas']);

/**
 * Attributes of the core User schema (RFC 7643 §4.1) the product does not keep. Entra's default
 * mapping sends several (`title`, `phoneNumbers[type eq "work"].value`, `addresses[…]`): they are
 * accepted and dropped, so provisioning goes on; a name outside the schema is refused (invalidPath).
 */
const UNKEPT = new Set([
  'nickname',
  'profileurl',
  'title',
  'usertype',
  'preferredlanguage',
  'locale',
  'timezone',
  'phonenumbers',
  'ims',
  'photos',
  'addresses',
  'entitlements',
  'roles',
  'x509certificates',
]);
const NAME_PARTS = { formatted: 'formatted', givenname: 'givenName', familyname: 'familyName' } as const;
const UNKEPT_NAME_PARTS = new Set(['middlename', 'honorificprefix', 'honorificsuffix']);

/**
 * Applies a PatchOp body to a user, as Okta and Entra send it. Pure: the operations apply in
 * order to a copy and the first bad one throws a ScimError, so a route writes all or nothing.
 */
export function applyUserPatch(current: ScimUserWritable, body: unknown): ScimUserWritable {
  const user = structuredClone(current);
  for (const operation of readPatchOperations(body)) applyOperation(user, operation);
  // The full name follows its parts (Entra replaces `name.familyName` alone) unless the same
  // PATCH changed it too, in whatever order its operations came.
  const partsChanged =
    user.name.givenName !== current.name.givenName || user.name.familyName !== current.name.familyName;
  if (partsChanged && user.name.formatted === current.name.formatted) user.name.formatted = null;
  return user;
}

function applyOperation(user: ScimUserWritable, { op, path, value, hasValue }: PatchOperation): void {
  if (path !== undefined) {
    applyAt(user, op, parseUserPath(path), value, hasValue);
    return;
  }
  if (op === 'remove') throw noTarget('A "remove" needs a "path" naming what to remove.');
  if (!isRecord(value)) throw invalidValue(`Without a "path", the value of "${op}" is an object of attributes.`);
  // Okta: {"active": false}; Entra: {"name.givenName": "…", "urn:…:enterprise:2.0:User:department": "…"}.
  for (const [key, v] of Object.entries(value)) {
    // Read-only attributes inside a value are ignored, as a PUT ignores them (RFC 7644 §3.5.1).
    if (READ_ONLY.has(key.toLowerCase())) continue;
    applyAt(user, op, parseUserPath(key), v, true);
  }
}

const parseUserPath = (text: string) => parsePath(text, SCIM_SCHEMAS.user, [SCIM_SCHEMAS.enterpriseUser]);

function applyAt(user: ScimUserWritable, op: PatchOpName, path: PatchPath, value: unknown, hasValue: boolean): void {
  if (path.schema === SCIM_SCHEMAS.enterpriseUser) {
    user.enterprise = patchEnterprise(user.enterprise, op, path, value);
    return;
  }
  const attr = path.attr ?? '';
  if (attr === 'emails') {
    user.emails = patchEmails(user.emails, op, path, value, hasValue);
    return;
  }
  if (READ_ONLY.has(attr)) throw mutability(`"${path.text}" is read-only.`);
  if (UNKEPT.has(attr)) return;
  if (attr === 'name') {
    patchName(user, op, path, value);
    return;
  }
  const write = ownEntry(SIMPLE, attr);
  if (write === undefined) throw invalidPath(`"${path.text}" is not an attribute of a User.`);
  if (path.filter !== undefined || path.sub !== undefined) {
    throw invalidPath(`"${path.text}": "${attr}" is a single value with no sub-attributes.`);
  }
  write(user, op === 'remove' ? undefined : value, path.text);
}

/** The single-valued attributes; `undefined` is a remove. */
const SIMPLE = {
  username(user: ScimUserWritable, value: unknown, where: string) {
    if (value === undefined) throw mutability('"userName" is required and cannot be removed.');
    if (typeof value !== 'string' || value.trim() === '') throw invalidValue(`"${where}" takes a non-empty string.`);
    user.userName = value.trim();
  },
  externalid(user: ScimUserWritable, value: unknown, where: string) {
    user.externalId = optionalString(value, where);
  },
  displayname(user: ScimUserWritable, value: unknown, where: string) {
    user.displayName = optionalString(value, where);
    // The name as shown is the product's one name: a new display name renames the account.
    if (user.displayName) user.name.formatted = user.displayName;
  },
  password(user: ScimUserWritable, value: unknown, where: string) {
    // Write-only (RFC 7643 §4.1.1): set it, never read or remove it; the product's rules judge it.
    if (value === undefined) throw mutability('"password" cannot be removed; replace it with a new one.');
    if (typeof value !== 'string' || value === '') throw invalidValue(`"${where}" takes a non-empty string.`);
    user.password = value;
  },
  active(user: ScimUserWritable, value: unknown, where: string) {
    // The product's accounts are always active or not: "remove" has no state to leave it in.
    if (value === undefined) throw mutability('"active" cannot be removed; replace it with false.');
    const parsed = scimBoolean.safeParse(value);
    if (!parsed.success) throw invalidValue(`"${where}" takes a boolean (true or false).`);
    user.active = parsed.data;
  },
};

function optionalString(value: unknown, where: string): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw invalidValue(`"${where}" takes a string.`);
  return value;
}

function patchName(user: ScimUserWritable, op: PatchOpName, path: PatchPath, value: unknown): void {
  if (path.filter !== undefined) throw invalidPath(`"${path.text}": "name" is not multi-valued.`);
  if (path.sub !== undefined) {
    setNamePart(user, path.sub, op === 'remove' ? null : value, path.text);
    return;
  }
  if (op === 'remove' || value === null) {
    user.name = { formatted: null, givenName: null, familyName: null };
    return;
  }
  // RFC 7644 §3.5.2.1/3: a complex value sets the sub-attributes it names and leaves the others.
  if (!isRecord(value)) throw invalidValue(`"${path.text}" takes an object of name parts.`);
  for (const [part, v] of Object.entries(value)) setNamePart(user, part.toLowerCase(), v, `name.${part}`);
}

function setNamePart(user: ScimUserWritable, part: string, value: unknown, where: string): void {
  if (UNKEPT_NAME_PARTS.has(part)) return;
  const key = ownEntry(NAME_PARTS, part);
  if (key === undefined) throw invalidPath(`"${where}" is not a part of a name.`);
  user.name[key] = optionalString(value, where);
}
