import { SCIM_SCHEMAS, type ScimListResponse } from '@app/contracts';
import { listGroups } from './groups/scim-groups.routes.js';
import { readableScimLists } from '../domain/scim.access.js';
import type { ScimContext } from './scim-context.js';
import { ScimError } from './scim-error.js';
import { readListParams, searchParams } from './scim-list-query.js';
import { listUsers } from './users/scim-users.routes.js';

type Listed = ScimListResponse<unknown>;

/**
 * `POST /.search` (RFC 7644 §3.4.3): the users, then the groups, matching the request, paged as
 * one list. A resource type the filter cannot apply to (an attribute only the other has) holds no
 * match; a filter neither can read is refused. Cursor paging walks one resource type: ask
 * `/Users/.search` or `/Groups/.search` for it. Each type needs its own read permission; one the
 * caller lacks contributes nothing rather than refusing the whole search.
 */
export async function rootSearch(ctx: ScimContext, body: unknown): Promise<Listed> {
  const params = searchParams(body);
  const asked = readListParams(params);
  if (asked.cursor !== null) throw new ScimError(400, 'Page a search of every resource by startIndex.', 'invalidValue');
  const counts = { ...params, startIndex: '1', count: '0' };
  const lists = { User: listUsers, Group: listGroups };
  const kinds = readableScimLists(ctx.actor).map((l) => ({ list: lists[l.type] }));
  const totals: (number | null)[] = [];
  let refusal: ScimError | null = null;
  for (const kind of kinds) {
    try {
      totals.push((await kind.list(ctx, counts)).totalResults);
    } catch (err) {
      if (!(err instanceof ScimError) || err.scimType !== 'invalidFilter') throw err;
      refusal = err;
      totals.push(null);
    }
  }
  if (totals.every((t) => t === null)) throw refusal ?? new ScimError(403, 'The token may read no resource type.');
  const resources: unknown[] = [];
  let skip = asked.startIndex - 1;
  let room = asked.count;
  for (const [i, kind] of kinds.entries()) {
    const total = totals[i] ?? null;
    if (total === null) continue;
    if (skip >= total) {
      skip -= total;
      continue;
    }
    if (room > 0) {
      const page = await kind.list(ctx, { ...params, startIndex: String(skip + 1), count: String(room) });
      resources.push(...page.Resources);
      room -= page.Resources.length;
    }
    skip = 0;
  }
  return {
    schemas: [SCIM_SCHEMAS.listResponse],
    totalResults: totals.reduce<number>((sum, t) => sum + (t ?? 0), 0),
    itemsPerPage: resources.length,
    startIndex: asked.startIndex,
    Resources: resources,
  };
}
