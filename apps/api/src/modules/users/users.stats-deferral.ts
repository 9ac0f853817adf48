import { QueryTypes, type Transaction } from 'sequelize';
import type { Database } from '../../db/database.js';
import { type DeferredBlock, withTriggersDeferred } from '../../db/trigger-deferral.js';

/** A user row's state as the counters see it; null when the row is gone. */
export type CountedState = { is_active: boolean; deleted: boolean } | null;

export interface StatsDelta {
  total: number;
  active: number;
  trashed: number;
}

/** What one row adds to each counter: the same rule as the triggers of migration 0003. */
const contribution = (s: CountedState): StatsDelta =>
  s === null
    ? { total: 0, active: 0, trashed: 0 }
    : { total: s.deleted ? 0 : 1, active: !s.deleted && s.is_active ? 1 : 0, trashed: s.deleted ? 1 : 0 };

/** The counters' net movement for rows going from `before` to `after`. */
export function statsDelta(rows: Iterable<{ before: CountedState; after: CountedState }>): StatsDelta {
  const d: StatsDelta = { total: 0, active: 0, trashed: 0 };
  for (const { before, after } of rows) {
    const [b, a] = [contribution(before), contribution(after)];
    d.total += a.total - b.total;
    d.active += a.active - b.active;
    d.trashed += a.trashed - b.trashed;
  }
  return d;
}

/**
 * The stats triggers' work deferred for a batch write: after it, the counters move by `delta` in
 * one statement (migration 0006 explains why). `delta` must describe exactly what the write
 * changes: the rows it touches are locked by the caller.
 */
export function statsBlock(db: Database, tx: Transaction, delta: StatsDelta): DeferredBlock {
  return {
    flag: '@user_stats_deferred',
    catchUp: async () => {
      if (!delta.total && !delta.active && !delta.trashed) return;
      await db.sequelize.query(
        'UPDATE user_stats SET total = total + :total, active = active + :active, trashed = trashed + :trashed WHERE id = 1',
        { transaction: tx, type: QueryTypes.RAW, replacements: { ...delta } },
      );
    },
  };
}

/** Runs `write` with the stats triggers deferred (`statsBlock`). On SQLite the triggers do the work as usual. */
export function withStatsDeferred(
  db: Database,
  tx: Transaction,
  delta: StatsDelta,
  write: () => Promise<void>,
): Promise<void> {
  return withTriggersDeferred(db, tx, [statsBlock(db, tx, delta)], write);
}
