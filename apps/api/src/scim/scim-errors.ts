import { ERRORS } from '@app/contracts';
import { describeError } from '../trpc/error-formatter.js';
import { EMAIL_TAKEN } from '../domain/users.edit-plan.js';
import { EXTERNAL_ID_TAKEN as ROLE_EXTERNAL_ID_TAKEN } from '../modules/roles/roles.write-support.js';
import { EXTERNAL_ID_TAKEN, USER_NAME_TAKEN } from '../modules/users/users.unique-refusal.js';
import { ScimError } from './scim-error.js';

const TAKEN = new Set([EMAIL_TAKEN, USER_NAME_TAKEN, EXTERNAL_ID_TAKEN, ROLE_EXTERNAL_ID_TAKEN]);
/** The role editor's refusal of a taken name (roles.write-support.ts `nameTaken`). */
const ROLE_NAME_TAKEN = /^A role named .+ already exists\.$/s;

/**
 * Any failure as the SCIM error an identity provider reads (RFC 7644 §3.12): the product's own
 * refusals keep their words and get SCIM's status and `scimType` — a taken e-mail, userName or
 * externalId is 409 `uniqueness`, an input a rule refuses is 400 `invalidValue`, a stale version
 * 412 — and nothing else (no stack, no SQL) leaves.
 */
export function toScimError(error: unknown): ScimError {
  if (error instanceof ScimError) return error;
  const { code, detail, errors } = describeError(error);
  const status = ERRORS[code].status;
  const fieldMessages = Object.values(errors ?? {}).flat();
  if (fieldMessages.some((m) => TAKEN.has(m))) return new ScimError(409, fieldMessages.join(' '), 'uniqueness');
  if (code === 'BAD_REQUEST' || code === 'PAYLOAD_TOO_LARGE') {
    return new ScimError(status === 413 ? 413 : 400, detail, status === 413 ? undefined : 'invalidSyntax');
  }
  if (code === 'VERSION_CONFLICT') return new ScimError(412, detail);
  if (code === 'ROLE_PROTECTED') return new ScimError(400, detail, 'mutability');
  if (fieldMessages.some((m) => ROLE_NAME_TAKEN.test(m))) {
    return new ScimError(409, fieldMessages.join(' '), 'uniqueness');
  }
  if (status === 422)
    return new ScimError(400, fieldMessages.length ? fieldMessages.join(' ') : detail, 'invalidValue');
  return new ScimError(status, detail);
}
