import {
  type AttributeRules,
  type AttributeSensitivity,
  type AttributeValue,
  attributePath,
  checkAttributeValue,
  type UserAttributesInput,
} from '@app/contracts';
import type { Actor } from '../auth/actor.js';
import { visibleTo } from './attributes.visibility.js';

/** What judging a user's values needs of each declared attribute. */
export interface AttributeFacts extends AttributeRules {
  id: number;
  key: string;
  unique: boolean;
  sensitivity: AttributeSensitivity;
  /** A schema change is walking the stored values: a write now could slip past its judgement. */
  changing: boolean;
}

/** One value to store (`value`), or to clear (`null`). */
export interface AttributeWrite<D extends AttributeFacts = AttributeFacts> {
  definition: D;
  value: AttributeValue | null;
}

/** The refusal of a value whose attribute a schema change is walking. */
export const changingMessage = (label: string) =>
  `${label} is being changed by an administrator right now. Try again in a minute.`;

export type AttributeErrors = Record<string, string[]>;

export type AttributePlan<D extends AttributeFacts> = { writes: AttributeWrite<D>[] } | { errors: AttributeErrors };

/**
 * Judges the values a create or an update sends, every door alike (REST, tRPC, the CLI, a bulk
 * job, an import line): each key must name an attribute the actor may see — a sensitive one does
 * not exist for anyone else, so it is refused as unknown — and each value must pass the
 * definition's rules (`checkAttributeValue`, the SPA's form runs the same). A creation must give
 * every required attribute the actor may see. While a schema change walks an attribute's stored
 * values (attributes.change-lease.ts), its values cannot be written. Errors are keyed `attributes.<key>`, the 422's shape.
 * Whether a user reference names a live user, and whether a unique value is free, needs the
 * database: attribute-values.write.ts asks that after this.
 */
export function planAttributeValues<D extends AttributeFacts>(
  actor: Pick<Actor, 'permissions'>,
  definitions: readonly D[],
  input: UserAttributesInput,
  { creating }: { creating: boolean },
): AttributePlan<D> {
  const visible = new Map(definitions.filter((d) => visibleTo(actor, d.sensitivity)).map((d) => [d.key, d]));
  const errors: AttributeErrors = {};
  const writes: AttributeWrite<D>[] = [];
  for (const [key, raw] of Object.entries(input)) {
    const definition = visible.get(key);
    if (!definition) {
      errors[attributePath(key)] = [`There is no attribute with the key "${key}".`];
      continue;
    }
    if (definition.changing) {
      errors[attributePath(key)] = [changingMessage(definition.label)];
      continue;
    }
    const checked = checkAttributeValue(definition, raw);
    if (checked.ok) writes.push({ definition, value: checked.value });
    else errors[attributePath(key)] = [checked.message];
  }
  if (creating) {
    for (const definition of visible.values()) {
      if (definition.required && !(definition.key in input)) {
        errors[attributePath(definition.key)] = [`${definition.label} is required.`];
      }
    }
  }
  return Object.keys(errors).length > 0 ? { errors } : { writes };
}
