import { type UsersListQuery, usersListQuery } from '@app/contracts';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { createMigrator, migrate } from '../../src/db/migrations/migrator.js';
import { pageIds, readStats } from '../../src/modules/users/users.read-repository.js';
import { usersOrder, usersWhere } from '../../src/modules/users/users.list-query.js';
import { estimateUsersSearch, indexedSearchCondition } from '../../src/modules/users/users.search.js';
import { type Narrowing, NARROWING } from '../../src/query/trigram-search.js';
import { createTestDatabaseTarget, engine, openTestDatabase, type TestDatabaseTarget } from '../support/test-db.js';

/**
 * The search index must not change what `q` finds: for random users and random terms, the rows
 * read through the index's candidates are exactly the plain LIKE scan's rows, in the same
 * order, on both engines. Cases, accents, expansions (ß, æ), LIKE's own characters, e-mail
 * punctuation, 1–2 character terms and terms that match nothing are all in the alphabet.
 */
const ALPHABET = [..."aAeEéÉèoOöÖuUsSßæÆ%_\\ .@+-'zZ19", 'ſ', '😀'];
const USERS = 300;

let target: TestDatabaseTarget;
let db: Database;

const text = (min: number, max: number) =>
  fc.array(fc.constantFrom(...ALPHABET), { minLength: min, maxLength: max }).map((cs) => cs.join(''));

/** Deterministic users from a seed: names and e-mails over the alphabet (e-mails unique by index). */
function users(seed: number, count: number, from = 0) {
  const rows = fc.sample(fc.tuple(text(1, 24), text(1, 20)), { seed, numRuns: count });
  return rows.map(([name, local], i) => ({
    name: name.trim() || 'x',
    email: `${local}.${from + i}@Exämple.com`,
    password_hash: '!',
    is_active: i % 3 !== 0,
  }));
}

/** A term: a piece of a stored name or e-mail with its case and accents shuffled, or random text. */
function terms(stored: readonly string[]) {
  const variant = (c: string) => fc.constantFrom(c, c.toUpperCase(), c.toLowerCase(), c === 'e' ? 'é' : c);
  const piece = fc
    .tuple(fc.constantFrom(...stored), fc.nat(), fc.integer({ min: 1, max: 9 }))
    .chain(([s, start, length]) => {
      const chars = Array.from(s);
      const from = start % chars.length;
      return fc.tuple(...chars.slice(from, from + length).map(variant)).map((cs) => cs.join(''));
    });
  return fc.oneof(piece, text(1, 6));
}

/**
 * On MySQL/MariaDB the rarest trigram's candidates are narrowed by a second trigram only past
 * 2 000 rows; a few hundred users never get there, so the property also runs with a partner
 * whenever the term has a second trigram at all.
 */
const ALWAYS_NARROWED: Narrowing = { from: 0, keepAtMost: 1 };

/** How many indexed reads went through a partner trigram. */
let partnered = 0;

async function idsFor(query: UsersListQuery, indexed: Narrowing | null): Promise<number[]> {
  let narrowing = null;
  if (indexed) {
    const search = await estimateUsersSearch(db, query, await readStats(db), indexed);
    if (search.estimate?.partner) partnered++;
    narrowing = indexedSearchCondition(db, search);
  }
  return pageIds(db, usersWhere(db, query, narrowing), usersOrder(query), 100_000);
}

const queryOf = (q: string, sort: string) =>
  usersListQuery.input.parse({ q, sort, filters: { trashed: 'with' } }) as UsersListQuery;

async function assertSameAsScan(seed: number, runs: number, narrowing: Narrowing = NARROWING) {
  const stored = (await db.models.User.findAll({ attributes: ['name', 'email'], raw: true })).flatMap((u) => [
    u.name,
    u.email,
  ]);
  let found = 0;
  let indexed = 0;
  await fc.assert(
    fc.asyncProperty(terms(stored), fc.constantFrom('name', 'email', 'id'), async (term, sort) => {
      const query = queryOf(term, sort);
      const scanned = await idsFor(query, null);
      expect(await idsFor(query, narrowing)).toEqual(scanned);
      if (scanned.length > 0) found++;
      if (query.q && Array.from(query.q).length >= 3) indexed++;
    }),
    { seed, numRuns: runs },
  );
  // The property means something only if many terms find rows and many go through the index.
  expect(found).toBeGreaterThan(runs / 3);
  expect(indexed).toBeGreaterThan(runs / 3);
}

beforeAll(async () => {
  target = await createTestDatabaseTarget();
  db = await openTestDatabase(target, { migrated: false });
  // Users written before the index existed: the migration's batched build indexes them.
  await migrate(db);
  await (await createMigrator(db)).down({ to: '0007-user-search-index' });
  await db.models.User.bulkCreate(users(1, USERS));
  await migrate(db);
}, 120_000);
afterAll(async () => {
  await db.close();
  await target.drop();
});

describe('indexed search', () => {
  it('finds what LIKE finds for users indexed by the migration', async () => {
    await assertSameAsScan(11, 150);
  });

  it('finds what LIKE finds after creates, renames, deletes and restores kept by the triggers', async () => {
    await db.models.User.bulkCreate(users(2, 100, USERS));
    const all = await db.models.User.findAll({ paranoid: false });
    const renames = users(3, 60, 10_000);
    for (const [i, user] of all.slice(0, 60).entries()) {
      const next = renames[i] as (typeof renames)[number];
      // Half change only accents or case: the collation calls them equal, the index must not.
      await user.update(
        i % 2 ? { name: next.name, email: next.email } : { name: user.name.replace(/e/g, 'é').toUpperCase() },
      );
    }
    for (const user of all.slice(60, 90)) await user.destroy();
    for (const user of all.slice(60, 75)) await user.restore();
    for (const user of all.slice(90, 110)) await user.destroy({ force: true });
    await assertSameAsScan(12, 150);
  });

  it('finds what LIKE finds when a second trigram narrows the candidates inside the index', async () => {
    partnered = 0;
    await assertSameAsScan(13, 150, ALWAYS_NARROWED);
    // SQLite's FTS5 phrase holds every trigram already; on MySQL/MariaDB the join must have run.
    if (engine() === 'mysql') expect(partnered).toBeGreaterThan(150 / 4);
  });

  it('narrows by a partner only on MySQL/MariaDB, and only when it keeps few enough rows', async () => {
    await db.models.User.create({ name: 'Partner Probe', email: 'partner.probe@example.com', password_hash: '!' });
    const stats = await readStats(db);
    const term = 'partner.pro';
    const narrowed = (await estimateUsersSearch(db, queryOf(term, 'id'), stats, ALWAYS_NARROWED)).estimate;
    if (engine() === 'sqlite') {
      // SQLite's FTS5 phrase already requires every trigram, in order: no partner to add.
      expect(narrowed?.partner).toBeNull();
      return;
    }
    // A few hundred users: the rarest trigram never has the 2 000 rows worth narrowing.
    expect((await estimateUsersSearch(db, queryOf(term, 'id'), stats)).estimate?.partner).toBeNull();
    expect(narrowed?.partner?.gram).toMatch(/^.{3}$/u);
    expect(narrowed?.grams.slice(1, 3).map((g) => g.gram)).toContain(narrowed?.partner?.gram);
    const sql = String(
      (indexedSearchCondition(db, { estimate: narrowed ?? null, rows: stats.total }) as { val: unknown }).val,
    );
    expect(sql).toContain('JOIN user_search_grams AS p ON p.gram =');
    // A partner that must keep no row at all is never found: the sample's share is above zero.
    const strict = await estimateUsersSearch(db, queryOf(term, 'id'), stats, { from: 0, keepAtMost: 0 });
    expect(strict.estimate?.partner).toBeNull();
    // Every "kkw" is in a "kkwz" here, and "kwz" with it: probing one for the other saves nothing.
    await db.models.User.bulkCreate(
      Array.from({ length: 40 }, (_, i) => ({ name: `Kkwz ${i}`, email: `kkwz.${i}@example.com`, password_hash: '!' })),
    );
    const travelling = await estimateUsersSearch(db, queryOf('kkwz', 'id'), await readStats(db), {
      from: 0,
      keepAtMost: 0.5,
    });
    expect(travelling.estimate?.grams[0]?.rows).toBeGreaterThanOrEqual(40);
    expect(travelling.estimate?.partner).toBeNull();
  });

  it('answers a term of fewer than three characters, or one nothing holds, without the index', async () => {
    const stats = await readStats(db);
    expect((await estimateUsersSearch(db, queryOf('ab', 'id'), stats)).estimate).toBeNull();
    const none = await estimateUsersSearch(db, queryOf('qqqqqq', 'id'), stats);
    // MariaDB's optimizer never estimates fewer than one row.
    expect(none.estimate?.grams[0]?.rows).toBeLessThanOrEqual(1);
    expect(await idsFor(queryOf('qqqqqq', 'id'), NARROWING)).toEqual([]);
  });
});
