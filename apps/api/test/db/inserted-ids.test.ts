import { QueryTypes } from 'sequelize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { insertWithIds } from '../../src/db/inserted-ids.js';
import { writeTransaction } from '../../src/db/transaction.js';
import { createTestDatabaseTarget, openTestDatabase, type TestDatabaseTarget } from '../support/test-db.js';

/**
 * An import chunk's users and audit rows are inserted many to a statement and their ids taken
 * from the statement's answer instead of read back: each id must be its own row's, across
 * statements, after ids were used and freed, and after another transaction's rows.
 */
let target: TestDatabaseTarget;
let db: Database;

beforeAll(async () => {
  target = await createTestDatabaseTarget();
  db = await openTestDatabase(target);
  await db.sequelize.query(
    db.dialect === 'mysql'
      ? 'CREATE TABLE id_probe (id INT UNSIGNED AUTO_INCREMENT PRIMARY KEY, label VARCHAR(20) NOT NULL)'
      : 'CREATE TABLE id_probe (id INTEGER PRIMARY KEY, label VARCHAR(20) NOT NULL)',
  );
}, 120_000);
afterAll(async () => {
  await db.close();
  await target.drop();
});

const SQL = 'INSERT INTO id_probe (label) VALUES :rows';

async function labelsById(): Promise<Map<number, string>> {
  const rows = await db.sequelize.query<{ id: number; label: string }>('SELECT id, label FROM id_probe', {
    type: QueryTypes.SELECT,
  });
  return new Map(rows.map((r) => [Number(r.id), r.label]));
}

describe('insertWithIds', () => {
  it('gives each row its own id, across statements and after freed ids', async () => {
    const first = Array.from({ length: 1_234 }, (_, i) => [`a${i}`]);
    const ids = await writeTransaction(db, (tx) => insertWithIds(db, tx, SQL, first, 500));
    expect(new Set(ids).size).toBe(first.length);
    await db.sequelize.query('DELETE FROM id_probe WHERE id > :keep', { replacements: { keep: ids[600] } });
    const second = Array.from({ length: 777 }, (_, i) => [`b${i}`]);
    const more = await writeTransaction(db, (tx) => insertWithIds(db, tx, SQL, second, 250));
    const stored = await labelsById();
    for (const [k, id] of ids.slice(0, 601).entries()) expect(stored.get(id)).toBe(`a${k}`);
    for (const [k, id] of more.entries()) expect(stored.get(id)).toBe(`b${k}`);
    expect(stored.size).toBe(601 + 777);
  });

  it('inserts nothing for no rows', async () => {
    expect(await writeTransaction(db, (tx) => insertWithIds(db, tx, SQL, [], 500))).toEqual([]);
  });
});
