import { SCIM_SCHEMAS } from '@app/contracts';
import { invalidSyntax, invalidValue } from '../scim-error.js';

export type PatchOpName = 'add' | 'replace' | 'remove';

/** One operation of a PatchOp body, its `op` folded to lower case and an empty path read as none. */
export interface PatchOperation {
  op: PatchOpName;
  path: string | undefined;
  /** Absent for most removes; `hasValue` tells an absent value from a `null` one. */
  value: unknown;
  hasValue: boolean;
}

/**
 * The most operations one PATCH may carry. Identity providers send a handful (Entra batches a
 * user's changed attributes, Okta one operation per change); a thousand is far above that and
 * keeps a single request's work bounded, since the whole list is read and judged before anything
 * is written. Group membership of any size goes in one operation's `value`, not as many operations.
 */
export const MAX_PATCH_OPERATIONS = 1000;

const OP_NAMES: readonly PatchOpName[] = ['add', 'replace', 'remove'];

export const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** SCIM attribute names are case-insensitive (RFC 7643 §2.1), the envelope's own names too. */
export function member(obj: Record<string, unknown>, name: string): { found: boolean; value: unknown } {
  const lower = name.toLowerCase();
  const key = Object.keys(obj).find((k) => k.toLowerCase() === lower);
  return key === undefined ? { found: false, value: undefined } : { found: true, value: obj[key] };
}

/** Reads a PatchOp message (RFC 7644 §3.5.2) into its operations, refusing a malformed envelope. */
export function readPatchOperations(body: unknown): PatchOperation[] {
  if (!isRecord(body)) throw invalidSyntax('A PATCH body is a JSON object with "schemas" and "Operations".');
  const schemas = member(body, 'schemas').value;
  const patchUrn = SCIM_SCHEMAS.patchOp.toLowerCase();
  if (!Array.isArray(schemas) || !schemas.some((s) => typeof s === 'string' && s.toLowerCase() === patchUrn)) {
    throw invalidSyntax(`"schemas" must include "${SCIM_SCHEMAS.patchOp}".`);
  }
  const operations = member(body, 'Operations').value;
  if (!Array.isArray(operations) || operations.length === 0) {
    throw invalidSyntax('"Operations" must be a non-empty array.');
  }
  if (operations.length > MAX_PATCH_OPERATIONS) {
    throw invalidValue(
      `A PATCH may carry at most ${MAX_PATCH_OPERATIONS} operations (this one has ${operations.length}); send several requests.`,
    );
  }
  return operations.map(readOperation);
}

function readOperation(raw: unknown, index: number): PatchOperation {
  const where = `Operations[${index}]`;
  if (!isRecord(raw)) throw invalidSyntax(`${where} must be an object with "op", and "path" or "value".`);
  const op = member(raw, 'op').value;
  const name = typeof op === 'string' ? op.trim().toLowerCase() : undefined;
  if (!OP_NAMES.includes(name as PatchOpName)) {
    throw invalidSyntax(`${where}.op must be "add", "replace" or "remove" (got ${JSON.stringify(op ?? null)}).`);
  }
  const rawPath = member(raw, 'path').value;
  if (rawPath !== undefined && rawPath !== null && typeof rawPath !== 'string') {
    throw invalidSyntax(`${where}.path must be a string.`);
  }
  const path = typeof rawPath === 'string' && rawPath.trim() !== '' ? rawPath.trim() : undefined;
  const value = member(raw, 'value');
  if (name !== 'remove' && !value.found) {
    throw invalidSyntax(`${where}: "${name}" needs a "value".`);
  }
  return { op: name as PatchOpName, path, value: value.value, hasValue: value.found };
}
