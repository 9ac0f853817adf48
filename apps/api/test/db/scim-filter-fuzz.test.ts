import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { groupsFilter } from '../../src/scim/filter/groups-filter.js';
import { usersFilter } from '../../src/scim/filter/users-filter.js';
import { ScimError } from '../../src/scim/scim-error.js';
import { createTestDatabaseTarget, openTestDatabase, type TestDatabaseTarget } from '../support/test-db.js';
import { seedPeople } from './scim-filter-bed.js';

/**
 * Whatever the filter, the answer is rows or a SCIM 400 invalidFilter: never another error, and
 * never SQL the database refuses (which the door would answer with a 500).
 */

let target: TestDatabaseTarget;
let db: Database;

beforeAll(async () => {
  target = await createTestDatabaseTarget();
  db = await openTestDatabase(target);
  await seedPeople(db);
});
afterAll(async () => {
  await db.close();
  await target.drop();
});

const PATHS = ['userName', 'externalId', 'id', 'name.familyName', 'name.givenName', 'displayName', 'emails', 'active'];
const MORE = ['emails.value', 'meta.created', 'groups.value', 'groups.display', 'members.value', 'nickName', 'name'];
const VALUES = ['"a"', '"%_\\\\\'\\""', 'true', '"True"', '5', '"2025-01-01T00:00:00Z"', 'null', '"é"', '""'];
const OPS = ['eq', 'ne', 'co', 'sw', 'ew', 'gt', 'ge', 'lt', 'le'];

/** Filters built from the grammar's pieces, often well-formed, sometimes not. */
const filterish = fc.letrec<{ filter: string }>((tie) => ({
  filter: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc
      .tuple(fc.constantFrom(...PATHS, ...MORE), fc.constantFrom(...OPS), fc.constantFrom(...VALUES))
      .map(([p, o, v]) => `${p} ${o} ${v}`),
    fc.constantFrom(...PATHS, ...MORE).map((p) => `${p} pr`),
    fc.tuple(tie('filter'), fc.constantFrom('and', 'or', 'AND'), tie('filter')).map(([a, o, b]) => `${a} ${o} ${b}`),
    tie('filter').map((f) => `not (${f})`),
    tie('filter').map((f) => `(${f})`),
    fc.tuple(fc.constantFrom('emails', 'groups', 'members'), tie('filter')).map(([p, f]) => `${p}[${f}]`),
    fc.string({ maxLength: 30 }),
  ),
}));

async function answers(run: () => unknown, query: (where: never) => Promise<unknown>): Promise<void> {
  let where: unknown;
  try {
    where = run();
  } catch (error) {
    expect(error).toBeInstanceOf(ScimError);
    expect((error as ScimError).scimType).toBe('invalidFilter');
    return;
  }
  await query(where as never);
}

it('answers users or invalidFilter for any filter', async () => {
  await fc.assert(
    fc.asyncProperty(filterish.filter, async (text) => {
      await answers(
        () => usersFilter(db, text).where,
        (where) => db.models.User.findAll({ where, attributes: ['id'] }),
      );
    }),
    { numRuns: 150, seed: 39 },
  );
});

it('answers groups or invalidFilter for any filter', async () => {
  await fc.assert(
    fc.asyncProperty(filterish.filter, async (text) => {
      await answers(
        () => groupsFilter(db, text),
        (where) => db.models.Role.findAll({ where, attributes: ['id'] }),
      );
    }),
    { numRuns: 150, seed: 40 },
  );
});
