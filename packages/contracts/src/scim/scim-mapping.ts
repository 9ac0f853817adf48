import { z } from 'zod';
import { AttributeKeySchema } from '../attributes/attribute-schema';

/**
 * Which custom attribute each field of SCIM's enterprise extension (RFC 7643 §4.3) fills: an
 * identity provider's `employeeNumber`, `department` or `manager` lands in the attribute an
 * administrator chose. A field with no attribute is ignored when it comes in and never answered.
 */
export const SCIM_ENTERPRISE_FIELDS = [
  'employeeNumber',
  'costCenter',
  'organization',
  'division',
  'department',
  'manager',
] as const;
export type ScimEnterpriseField = (typeof SCIM_ENTERPRISE_FIELDS)[number];

/** `manager` names a user (a `user` attribute); every other field is text (a string or an enumeration). */
export const scimFieldTakes = (field: ScimEnterpriseField): readonly ('string' | 'enum' | 'user')[] =>
  field === 'manager' ? ['user'] : ['string', 'enum'];

const mappedKey = AttributeKeySchema.nullable().default(null);

/** The mapping: each field's attribute key, or null. */
export const ScimMappingSchema = z.object({
  employeeNumber: mappedKey,
  costCenter: mappedKey,
  organization: mappedKey,
  division: mappedKey,
  department: mappedKey,
  manager: mappedKey,
});
export type ScimMapping = z.output<typeof ScimMappingSchema>;

/** PUT /scim/enterprise-mapping: the whole mapping (a field left out is unmapped). */
export const ScimMappingInputSchema = z.object({ mapping: ScimMappingSchema });
export type ScimMappingInput = z.output<typeof ScimMappingInputSchema>;

export const ScimMappingAnswerSchema = z.object({ item: z.object({ mapping: ScimMappingSchema }) });
export type ScimMappingAnswer = z.infer<typeof ScimMappingAnswerSchema>;
