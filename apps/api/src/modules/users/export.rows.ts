import type { UserRow, UsersExportInput } from '@app/contracts';
import { Op, type WhereOptions } from 'sequelize';
import type { Database } from '../../db/database.js';
import { after } from '../../query/list-query-engine.js';
import { orderedReadHints, usersOrder, usersWhere } from './users.list-query.js';
import { usersMapping } from './users.mapping.js';
import { ROW_ATTRIBUTES, readStats, toUserRow } from './users.read-repository.js';
import { estimateUsersSearch, searchCondition } from './users.search.js';

/** Rows per query: large enough to amortise the round trip, small enough to keep memory flat. */
export const EXPORT_BATCH_SIZE = 1000;

type RawRow = Parameters<typeof toUserRow>[0];

/**
 * The export's rows, in the list's order, one keyset batch at a time (never OFFSET: the last
 * batch costs what the first does). The first batch is read before this resolves, so a failing
 * query is an error answer rather than a 200 cut short. The generator reads the next batch only
 * when asked: a consumer that stops iterating (a closed download) stops the queries.
 */
export async function openUserBatches(
  db: Database,
  input: UsersExportInput,
  size = EXPORT_BATCH_SIZE,
): Promise<AsyncGenerator<UserRow[]>> {
  const search = await estimateUsersSearch(db, input, await readStats(db));
  const narrowing = searchCondition(db, search, { kind: 'batches', size });
  const base = usersWhere(db, input, narrowing);
  const matching: WhereOptions = input.ids ? { [Op.and]: [base, { id: { [Op.in]: input.ids } }] } : base;
  const order = usersOrder(input);
  // Read through the search index, the candidates are sorted, not walked in the sort's index.
  const hints = narrowing ? {} : orderedReadHints(db, input);
  const read = async (last: RawRow | undefined): Promise<RawRow[]> => {
    // Bound as a Date, the timestamp is written exactly as stored (SQLite keeps text), so ties compare equal.
    const continuation = last && after(usersMapping, input, { ...last, created_at: new Date(last.created_at) });
    const where = continuation ? { [Op.and]: [matching, continuation] } : matching;
    return (await db.models.User.findAll({
      attributes: [...ROW_ATTRIBUTES] as never,
      where,
      order,
      limit: size,
      paranoid: false,
      raw: true,
      ...hints,
    })) as unknown as RawRow[];
  };
  const first = await read(undefined);
  return (async function* batches() {
    let rows = first;
    while (rows.length > 0) {
      yield rows.map(toUserRow);
      if (rows.length < size) return;
      rows = await read(rows[rows.length - 1]);
    }
  })();
}

/** One record per row, for writers that take records (the CSV stringifier, the JSON writer). */
export async function* eachRow<T>(batches: AsyncIterable<UserRow[]>, toRecord: (row: UserRow) => T): AsyncGenerator<T> {
  for await (const batch of batches) {
    for (const row of batch) yield toRecord(row);
  }
}
