import type { QueryOptions, Sequelize } from 'sequelize';
import { isDatabaseUnreachable } from './unavailable.js';

/**
 * A read that may be answered by a replica: list pages, their counts and export batches, which
 * can be a moment behind the primary. Every other read (a record by id, the caller's session,
 * the rules' reads, statistics) goes to the primary, so a caller reads its own writes.
 */
export const MAY_READ_REPLICA = { useMaster: false } as const;

/** After a replica fails, reads stay on the primary this long before a replica is tried again. */
const REPLICA_RETRY_MS = 5_000;

export interface ReplicaEvents {
  /** A replica failed and reads went to the primary (said once until replicas answer again). */
  down(error: unknown): void;
  /** Replicas answer again after being down. */
  up(): void;
}

/** The part of Sequelize's replication pool this module steers (sequelize/lib/dialects/abstract). */
interface ReplicationPool {
  acquire(queryType: string | undefined, useMaster: boolean | undefined): Promise<unknown>;
  read: { acquire(): Promise<unknown> };
  write: { acquire(): Promise<unknown> };
}

export interface ReplicaRouting {
  /** False while reads are held on the primary after a replica failure. */
  readonly replicasInUse: boolean;
}

/**
 * Steers reads between the primary and replicas, for a Sequelize instance made with
 * `replication`. Sequelize's own rule sends every SELECT outside a transaction to a replica and
 * fails the request when that replica is gone; here:
 *
 * - only reads marked {@link MAY_READ_REPLICA} go to a replica, everything else to the primary;
 * - when a replica cannot be reached (at connect or mid-query) the read is answered by the
 *   primary instead, reads stay there for {@link REPLICA_RETRY_MS}, and `events.down` is told
 *   once; `events.up` when a replica answers again.
 */
export function routeReads(sequelize: Sequelize, events: ReplicaEvents): ReplicaRouting {
  const manager = (sequelize as unknown as { connectionManager: { pool: ReplicationPool } }).connectionManager;
  const pool = manager.pool;
  let heldUntil = 0;
  let down = false;

  const fail = (error: unknown) => {
    heldUntil = Date.now() + REPLICA_RETRY_MS;
    if (!down) {
      down = true;
      events.down(error);
    }
  };

  pool.acquire = async (_queryType, useMaster) => {
    if (useMaster !== false || Date.now() < heldUntil) return pool.write.acquire();
    try {
      const connection = await pool.read.acquire();
      if (down) {
        down = false;
        events.up();
      }
      return connection;
    } catch (error) {
      if (!isDatabaseUnreachable(error)) throw error;
      fail(error);
      return pool.write.acquire();
    }
  };

  // A replica that goes away mid-query fails the query, not the acquire: ask the primary instead.
  const query = sequelize.query.bind(sequelize) as (sql: unknown, options?: QueryOptions) => Promise<unknown>;
  const routedQuery = async (sql: unknown, options?: QueryOptions) => {
    try {
      return await query(sql, options);
    } catch (error) {
      if (options?.useMaster !== false || options.transaction || !isDatabaseUnreachable(error)) throw error;
      fail(error);
      return query(sql, { ...options, useMaster: true });
    }
  };
  (sequelize as unknown as { query: typeof routedQuery }).query = routedQuery;

  return {
    get replicasInUse() {
      return !down;
    },
  };
}
