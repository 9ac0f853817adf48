import type { Attribute } from '@app/contracts';
import type { ManageCall } from './attributes.call.js';
import { findDefinition, holdersOf, toAttribute } from './attributes.repository.js';

/** GET /attributes/{key}. */
export async function showAttribute({ ctx, input }: ManageCall<{ key: string }>): Promise<{ item: Attribute }> {
  const definition = await findDefinition(ctx.db, input.key);
  const holders = await holdersOf(ctx.db, [definition.id]);
  return { item: toAttribute(definition, holders.get(definition.id) ?? 0) };
}
