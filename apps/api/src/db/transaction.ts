import { AsyncLocalStorage } from 'node:async_hooks';
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

/** Work queued to run at the end of a writeTransaction's work, still inside it (see `beforeCommit`). */
const finishers = new WeakMap<Transaction, Array<() => Promise<void>>>();

/**
 * Queues `finish` to run inside `tx` once its work is done, just before commit: for what must
 * see the transaction's final state (the webhook outbox reads the changed rows) whatever order
 * the work wrote things in. Returns false when `tx` is not a writeTransaction's, whose caller
 * then runs the work itself.
 */
export function beforeCommit(tx: Transaction, finish: () => Promise<void>): boolean {
  const queue = finishers.get(tx);
  if (!queue) return false;
  queue.push(finish);
  return true;
}

/**
 * Runs `work` in one transaction that takes its locks up front: rows read with `FOR UPDATE` on
 * MySQL, and on SQLite a BEGIN IMMEDIATE that holds the database's write lock from the first
 * statement, so a check and the write it guards cannot be interleaved with another writer.
 * Deadlock victims are retried: the work must be a pure function of what it reads.
 */
export async function writeTransaction<T>(db: Database, work: (tx: Transaction) => Promise<T>): Promise<T> {
  return db.dialect === 'sqlite'
    ? oneWriterAtATime(db, () => runWriteTransaction(db, work))
    : runWriteTransaction(db, work);
}

/**
 * Writes made outside a transaction — a session touched or ended, a rate-limit hit, a token's
 * last use — in their turn among the writers. On SQLite they queue with the write transactions
 * below. Left to themselves they wait for the lock in SQLite's busy handler, which polls (every
 * 100 ms after the first few), while queued transactions hand the lock straight to one another:
 * under the fuzzer's bursts a sign-in or a sign-out waited over a second. Work already holding a
 * turn runs at once. MySQL: it just runs.
 */
export function inWriteTurn<T>(db: Database, write: () => Promise<T>): Promise<T> {
  if (db.dialect !== 'sqlite' || holdingTurn.getStore()) return write();
  return oneWriterAtATime(db, write);
}

/** The tail of each SQLite database's queue of writes. */
const sqliteWriters = new WeakMap<Database, Promise<unknown>>();
/** Set while a queued write runs, so a write it makes itself does not queue behind it. */
const holdingTurn = new AsyncLocalStorage<true>();

/**
 * SQLite has one writer at a time, and node-sqlite3 runs each statement on libuv's thread pool
 * (4 threads): a BEGIN IMMEDIATE that waits for the write lock waits *on a pool thread*, in
 * SQLite's busy handler. With more writers waiting than threads, the one holding the lock could
 * not get a thread for its next statement until a waiter gave up after the 10 s busy timeout —
 * 12 concurrent status changes took 25 s. So this process's write transactions queue here and
 * start one after another: the embedded database is single-process, and its lock already
 * serialised them.
 */
function oneWriterAtATime<T>(db: Database, run: () => Promise<T>): Promise<T> {
  const previous = sqliteWriters.get(db) ?? Promise.resolve();
  const turn = () => holdingTurn.run(true, run);
  const mine = previous.then(turn, turn);
  sqliteWriters.set(
    db,
    mine.catch(() => undefined),
  );
  return mine;
}

async function runWriteTransaction<T>(db: Database, work: (tx: Transaction) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.sequelize.transaction(
        // MySQL: READ COMMITTED, the session default of every pooled connection (database.ts).
        db.dialect === 'sqlite' ? { type: Tx.TYPES.IMMEDIATE } : {},
        async (tx) => {
          const queue: Array<() => Promise<void>> = [];
          finishers.set(tx, queue);
          const result = await work(tx);
          for (let next = queue.shift(); next; next = queue.shift()) await next();
          return result;
        },
      );
    } catch (err) {
      if (attempt >= MAX_ATTEMPTS || !isRetryable(err)) throw err;
      await new Promise((resolve) => setTimeout(resolve, 10 * attempt + Math.random() * 20));
    }
  }
}
