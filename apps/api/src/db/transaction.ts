import { type Transaction, Transaction as Tx } from 'sequelize';
import type { Database } from './database.js';

const MAX_ATTEMPTS = 4;

/**
 * Thrown by work that found, under lock, that what it read before locking no longer holds (it
 * took too few locks): the transaction is rolled back and run again.
 */
export class RetryTransaction extends Error {
  constructor(reason: string) {
    super(`retry: ${reason}`);
  }
}

/** MySQL deadlock (1213) or lock wait timeout (1205), SQLite busy: safe to run the whole transaction again. */
function isRetryable(err: unknown): boolean {
  if (err instanceof RetryTransaction) return true;
  const parent = (err as { parent?: { errno?: number; code?: string } }).parent;
  return parent?.errno === 1213 || parent?.errno === 1205 || parent?.code === 'SQLITE_BUSY';
}

/**
 * Runs `work` in one transaction that takes its locks up front: rows read with `FOR UPDATE` on
 * MySQL, and on SQLite a BEGIN IMMEDIATE that holds the database's write lock from the first
 * statement, so a check and the write it guards cannot be interleaved with another writer.
 * Deadlock victims are retried: the work must be a pure function of what it reads.
 */
export async function writeTransaction<T>(db: Database, work: (tx: Transaction) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.sequelize.transaction(
        // MySQL: READ COMMITTED, the session default of every pooled connection (database.ts).
        db.dialect === 'sqlite' ? { type: Tx.TYPES.IMMEDIATE } : {},
        work,
      );
    } catch (err) {
      if (attempt >= MAX_ATTEMPTS || !isRetryable(err)) throw err;
      await new Promise((resolve) => setTimeout(resolve, 10 * attempt + Math.random() * 20));
    }
  }
}
