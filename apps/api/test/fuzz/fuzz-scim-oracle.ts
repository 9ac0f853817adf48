import { SCIM_ERROR_TYPES, SCIM_SCHEMAS } from '@app/contracts';
import type { Answer } from './fuzz-oracle.js';

const SCIM_TYPES = new Set<string>(SCIM_ERROR_TYPES);

/**
 * A SCIM refusal's shape (RFC 7644 §3.12): `application/scim+json`, `schemas` holding the Error
 * URN, `status` the answer's status as a string, `scimType` one of the RFC's, `detail` text.
 */
export function scimErrorShape(answer: Answer): string[] {
  if (!/^application\/scim\+json/.test(answer.contentType)) {
    return [`a SCIM refusal sent as ${answer.contentType || 'no media type'}: ${answer.body.slice(0, 200)}`];
  }
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(answer.body) as Record<string, unknown>;
  } catch {
    return [`a SCIM refusal that is not JSON: ${answer.body.slice(0, 200)}`];
  }
  const out: string[] = [];
  if (!Array.isArray(body.schemas) || !body.schemas.includes(SCIM_SCHEMAS.error)) {
    out.push(`a SCIM refusal without the Error schema: ${answer.body.slice(0, 200)}`);
  }
  if (body.status !== String(answer.status)) out.push(`a SCIM refusal whose status is ${JSON.stringify(body.status)}`);
  if (body.scimType !== undefined && !SCIM_TYPES.has(String(body.scimType))) {
    out.push(`a SCIM refusal with scimType ${JSON.stringify(body.scimType)}`);
  }
  if (typeof body.detail !== 'string') out.push('a SCIM refusal without a detail');
  return out;
}

/** The statuses any SCIM request may get for its form (query string, size, media type), documented or not. */
export const SCIM_GENERIC_STATUSES: readonly number[] = [400, 413, 415];
