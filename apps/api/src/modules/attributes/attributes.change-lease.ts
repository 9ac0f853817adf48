import { QueryTypes } from 'sequelize';
import type { Database } from '../../db/database.js';
import { writeTransaction } from '../../db/transaction.js';
import { AppError } from '../../errors.js';
import { type AttributeDefinition, findDefinition } from './attributes.repository.js';

/** How long a lease holds without renewal: a batch of the walk takes well under a second. */
const LEASE_MS = 60_000;

/** Renews the lease; a walk calls it after each batch. */
export type RenewLease = () => Promise<void>;

const setLease = (db: Database, id: number, until: Date | null) =>
  db.sequelize.query('UPDATE attributes SET changing_until = :until WHERE id = :id', {
    replacements: { until, id },
    type: QueryTypes.UPDATE,
  });

/**
 * Runs a schema change that walks an attribute's stored values in batches (each its own short
 * transaction) under a lease: until `changing_until`, every door refuses writes of that
 * attribute's values (planAttributeValues), so no value slips in between the walk's judgement
 * and the new definition. Taking the lease waits for writes already under way (they hold the
 * definition's row in share mode) and then commits, so the walk reads every value written before
 * it. A second change of the same attribute meanwhile is refused (409 ATTRIBUTE_BUSY). The
 * lease lapses by itself when the instance dies mid-walk; `work` ends it in the transaction
 * that writes the new definition (`changing_until = NULL`), and a failure ends it here.
 */
export async function withChangeLease<T>(
  db: Database,
  key: string,
  work: (definition: AttributeDefinition, renew: RenewLease) => Promise<T>,
): Promise<T> {
  const definition = await writeTransaction(db, async (tx) => {
    const locked = await findDefinition(db, key, tx, true);
    if (locked.changing) throw new AppError('ATTRIBUTE_BUSY');
    await db.sequelize.query('UPDATE attributes SET changing_until = :until WHERE id = :id', {
      replacements: { until: new Date(Date.now() + LEASE_MS), id: locked.id },
      transaction: tx,
    });
    return locked;
  });
  try {
    return await work(definition, () => setLease(db, definition.id, new Date(Date.now() + LEASE_MS)).then(() => {}));
  } catch (err) {
    await setLease(db, definition.id, null);
    throw err;
  }
}
