import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { groupsFilter } from '../../src/scim/filter/groups-filter.js';
import { createTestDatabaseTarget, openTestDatabase, type TestDatabaseTarget } from '../support/test-db.js';
import { expectInvalidFilter, type Person, seedPeople } from './scim-filter-bed.js';

/** SCIM filters on Groups (the product's roles) as SQL, on this engine. */

let target: TestDatabaseTarget;
let db: Database;
let ids: Record<Person, number>;
let roles: Record<string, number>;

beforeAll(async () => {
  target = await createTestDatabaseTarget();
  db = await openTestDatabase(target);
  ({ ids, roles } = await seedPeople(db));
});
afterAll(async () => {
  await db.close();
  await target.drop();
});

/** The names of the roles a filter finds, in id order. */
async function found(filter: string): Promise<string[]> {
  const rows = await db.models.Role.findAll({
    where: groupsFilter(db, filter),
    attributes: ['id', 'name'],
    order: [['id', 'ASC']],
  });
  return rows.map((r) => r.name);
}

describe('groups', () => {
  it('finds groups by displayName without regard to case', async () => {
    expect(await found('displayName eq "help desk"')).toEqual(['Help Desk']);
    expect(await found('displayName ne "HELP DESK"')).toEqual(['Sales', 'Sales – EMEA']);
    expect(await found('displayName co "SALES"')).toEqual(['Sales', 'Sales – EMEA']);
    expect(await found('displayName sw "sales –"')).toEqual(['Sales – EMEA']);
    expect(await found('displayName ew "desk"')).toEqual(['Help Desk']);
    expect(await found('displayName pr and urn:ietf:params:scim:schemas:core:2.0:Group:displayName sw "h"')).toEqual([
      'Help Desk',
    ]);
  });

  it('finds groups by id', async () => {
    expect(await found(`id eq "g${roles.Sales}"`)).toEqual(['Sales']);
    // The ordering operators compare the role numbers.
    expect(await found(`id le "g${roles.Sales}"`)).toContain('Sales');
    expect(await found(`id gt "g${roles.Sales}"`)).not.toContain('Sales');
    // A group's id is `g` and the role's number: the number alone, or another spelling, is no group id.
    expect(await found(`id eq "${roles.Sales}"`)).toEqual([]);
    expect(await found(`id eq ${roles.Sales}`)).toEqual([]);
    expect(await found(`id eq "G${roles.Sales}"`)).toEqual([]);
    expect(await found(`id eq "g0${roles.Sales}"`)).toEqual([]);
    expect(await found('id eq "sales"')).toEqual([]);
  });

  it('finds the groups a user is a member of', async () => {
    expect(await found(`members.value eq "${ids.carol}"`)).toEqual(['Help Desk', 'Sales']);
    expect(await found(`members[value eq "${ids.alice}"]`)).toEqual(['Help Desk']);
    expect(await found(`members eq "${ids.dee}"`)).toEqual([]);
    expect(await found('not (members pr)')).toEqual(['Sales – EMEA']);
    expect(await found('displayName co "sales" and members[display co "bob"]')).toEqual(['Sales']);
  });

  it('leaves out members in the trash', async () => {
    await db.models.User.destroy({ where: { id: ids.bob } });
    try {
      expect(await found(`members.value eq "${ids.bob}"`)).toEqual([]);
      expect(await found(`members.value eq "${ids.carol}"`)).toEqual(['Help Desk', 'Sales']);
    } finally {
      await db.models.User.restore({ where: { id: ids.bob } });
    }
  });

  it('refuses unknown attributes and operators a field cannot take', () => {
    expectInvalidFilter(() => groupsFilter(db, 'userName eq "x"'), /"userName"/);
    expectInvalidFilter(() => groupsFilter(db, 'members.value co "1"'), /"members.value".*"co"/);
    expectInvalidFilter(() => groupsFilter(db, 'displayName eq'), /syntax/);
  });
});
