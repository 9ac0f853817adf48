import { usersListQuery } from '@app/contracts';
import type { Database } from '../../db/database.js';
import { pageIds, readStats } from './users.read-repository.js';
import { usersOrder, usersWhere } from './users.list-query.js';
import { estimateUsersSearch, searchCondition } from './users.search.js';

/**
 * The newest `limit` users, live or deleted, whose name or e-mail holds `term` — the users
 * list's own search (same meaning, same index) for another resource that names users (the
 * audit log's `q`).
 */
export async function userIdsMatching(db: Database, term: string, limit: number): Promise<number[]> {
  const query = usersListQuery.input.parse({ q: term, filters: { trashed: 'with' } });
  const search = await estimateUsersSearch(db, query, await readStats(db));
  const narrowing = searchCondition(db, search, { kind: 'page', offset: 0, limit });
  return pageIds(db, usersWhere(db, query, narrowing), usersOrder(query), limit);
}
