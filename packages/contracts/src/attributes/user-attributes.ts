import { z } from 'zod';
import { ATTRIBUTES_MAX } from './attribute-schema';
import { AttributeSchema } from './attribute-schema';

/**
 * Custom attribute values on users (SPEC §14, "Attributes"): what a user answer carries and what
 * a create or an update may send. Each value is judged by `checkAttributeValue` at every door.
 */

/** A stored value as answered: text (string, e-mail, address, enumeration, date), a number, yes/no, a user id. */
export const AttributeValueSchema = z.union([z.string(), z.number(), z.boolean()]);

/** A user's values by attribute key: only the attributes the caller may see, and only those holding a value. */
export const UserAttributesSchema = z.record(z.string(), AttributeValueSchema);
export type UserAttributes = z.infer<typeof UserAttributesSchema>;

/**
 * Values to write, by key: a create sets them, an update changes only the keys it names, and
 * `null` (or an empty text) clears one. What each value must be is the definition's to say.
 */
export const UserAttributesInputSchema = z
  .record(z.string(), AttributeValueSchema.nullable(), {
    error: 'Attributes must be an object of values by attribute key.',
  })
  .refine((values) => Object.keys(values).length <= ATTRIBUTES_MAX, {
    message: `At most ${ATTRIBUTES_MAX} attributes can be given.`,
  });
export type UserAttributesInput = z.infer<typeof UserAttributesInputSchema>;

/** A definition as a form, a list column or a filter needs it (what is declared, not how many hold it). */
export const AttributeFieldSchema = AttributeSchema.omit({ holders: true, created_at: true, updated_at: true });
export type AttributeField = z.infer<typeof AttributeFieldSchema>;

/** The key an attribute's value travels under in an error map, an audit diff or a column: `attributes.<key>`. */
export const attributePath = (key: string) => `attributes.${key}` as const;
