import type { AttributeList } from '@app/contracts';
import type { ManageCall } from './attributes.call.js';
import { holdersOf, listDefinitions, toAttribute } from './attributes.repository.js';

/** GET /attributes: every declared attribute, by label, each with how many users hold a value (one page: at most 100). */
export async function listAttributes({ ctx }: ManageCall<unknown>): Promise<AttributeList> {
  const definitions = await listDefinitions(ctx.db);
  const holders = await holdersOf(
    ctx.db,
    definitions.map((d) => d.id),
  );
  const total = definitions.length;
  return {
    rows: definitions.map((d) => toAttribute(d, holders.get(d.id) ?? 0)),
    meta: { page: 1, perPage: Math.max(total, 1), total, totalExact: true, pageCount: total ? 1 : 0 },
  };
}
