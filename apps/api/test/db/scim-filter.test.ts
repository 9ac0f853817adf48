import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { usersFilter } from '../../src/scim/filter/users-filter.js';
import { createTestDatabaseTarget, openTestDatabase, type TestDatabaseTarget } from '../support/test-db.js';
import { expectInvalidFilter, type Person, seedPeople } from './scim-filter-bed.js';

/**
 * SCIM filters on Users (RFC 7644 §3.4.2.2) as SQL, on this engine: which of the seeded people
 * each filter finds (scim-filter-bed.ts has them), and which filters are refused.
 */

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

/** The people a filter finds, by key, in id order. */
async function found(filter: string): Promise<Person[]> {
  const rows = await db.models.User.findAll({
    where: usersFilter(db, filter).where,
    attributes: ['id'],
    order: [['id', 'ASC']],
  });
  const byId = new Map(Object.entries(ids).map(([k, id]) => [id, k as Person]));
  return rows.map((r) => byId.get(r.id) ?? (`unknown ${r.id}` as Person));
}

describe('userName', () => {
  it("finds Okta's e-mail userName and Entra's UPN, without regard to case", async () => {
    expect(await found('userName eq "alice@contoso.com"')).toEqual(['alice']);
    expect(await found('userName eq "ALICE@Contoso.COM"')).toEqual(['alice']);
    expect(await found('userName eq "bob.smith@contoso.onmicrosoft.com"')).toEqual(['bob']);
    // A user with a userName of their own answers to it, not to the e-mail.
    expect(await found('userName eq "bob@example.org"')).toEqual([]);
  });

  it('takes every text operator', async () => {
    expect(await found('userName ne "alice@contoso.com"')).toEqual(['bob', 'carol', 'dee', 'hoppy']);
    expect(await found('userName co "CONTOSO"')).toEqual(['alice', 'bob']);
    expect(await found('userName sw "ho"')).toEqual(['hoppy']);
    expect(await found('userName ew ".onmicrosoft.com"')).toEqual(['bob']);
    expect(await found('userName gt "c"')).toEqual(['carol', 'dee', 'hoppy']);
    expect(await found('userName ge "carol@example.org"')).toEqual(['carol', 'dee', 'hoppy']);
    expect(await found('userName lt "b"')).toEqual(['alice']);
    expect(await found('userName le "bob.smith@contoso.onmicrosoft.com"')).toEqual(['alice', 'bob']);
    expect(await found('userName pr')).toEqual(['alice', 'bob', 'carol', 'dee', 'hoppy']);
  });

  it('reads attribute names and operators in any case, and with the core schema URN', async () => {
    expect(await found('USERNAME EQ "alice@contoso.com"')).toEqual(['alice']);
    expect(await found('urn:ietf:params:scim:schemas:core:2.0:User:userName eq "alice@contoso.com"')).toEqual([
      'alice',
    ]);
    expect(await found('urn:ietf:params:scim:schemas:core:2.0:User:name.familyName co "hopp"')).toEqual([
      'alice',
      'carol',
    ]);
  });
});

describe('lookups by index', () => {
  /** The plan of the users query a filter makes, as the engine explains it (one string). */
  async function plan(filter: string): Promise<string> {
    let statement = '';
    await db.models.User.findAll({
      where: usersFilter(db, filter).where,
      attributes: ['id'],
      logging: (sql) => {
        statement = sql.replace(/^Executing \([^)]*\): /, '');
      },
    });
    const explain = db.dialect === 'mysql' ? 'EXPLAIN' : 'EXPLAIN QUERY PLAN';
    const [rows] = await db.sequelize.query(`${explain} ${statement}`);
    return JSON.stringify(rows);
  }

  it('reads userName eq and externalId eq through their unique indexes', async () => {
    expect(await plan('userName eq "alice@contoso.com"')).toContain('users_user_name_key');
    expect(await plan('userName eq "alice@contoso.com" and active eq true')).toContain('users_user_name_key');
    expect(await plan('externalId eq "ext-A"')).toContain('users_external_id');
  });

  it('answers right where MariaDB ranged wrongly over the userName index with a rowid filter', async () => {
    // Both answered no rows on MariaDB 10.11.19 when written against user_name_key (users-filter.ts).
    expect(
      await found('(userName eq "alice@contoso.com" or userName eq "carol@example.org") and active eq true'),
    ).toEqual(['alice']);
    expect(await found('userName ge "a" and userName lt "b" and active eq true')).toEqual(['alice']);
  });
});

describe('id and externalId (caseExact)', () => {
  it('finds by externalId exactly as stored', async () => {
    expect(await found('externalId eq "ext-A"')).toEqual(['alice']);
    expect(await found('externalId eq "EXT-A"')).toEqual([]);
    expect(await found('externalId sw "ext-"')).toEqual(['alice', 'bob']);
    expect(await found('externalId co "A"')).toEqual(['alice']);
    expect(await found('externalId pr')).toEqual(['alice', 'bob', 'hoppy']);
  });

  it('lets ne and not match users without an externalId', async () => {
    expect(await found('externalId ne "ext-A"')).toEqual(['bob', 'carol', 'dee', 'hoppy']);
    expect(await found('not (externalId pr)')).toEqual(['carol', 'dee']);
    expect(await found('not (externalId eq "ext-b")')).toEqual(['alice', 'carol', 'dee', 'hoppy']);
  });

  it('compares ids as numbers; a value that is no id matches nothing', async () => {
    expect(await found(`id eq "${ids.carol}"`)).toEqual(['carol']);
    expect(await found(`id eq ${ids.carol}`)).toEqual(['carol']);
    expect(await found(`id gt "${ids.alice}" and id le "${ids.carol}"`)).toEqual(['bob', 'carol']);
    expect(await found(`id lt ${ids.bob} or id ge ${ids.hoppy}`)).toEqual(['alice', 'hoppy']);
    expect(await found('id eq "abc"')).toEqual([]);
    expect(await found(`id eq "0${ids.carol}"`)).toEqual([]);
    expect(await found('id ne "abc"')).toHaveLength(5);
  });
});

describe('name, displayName and emails', () => {
  it("finds the family name as the name's last word", async () => {
    expect(await found('name.familyName co "hopp"')).toEqual(['alice', 'carol']);
    expect(await found('name.familyName eq "O\'HARA"')).toEqual(['dee']);
    expect(await found('name.familyName sw "Jo"')).toEqual(['hoppy']);
    expect(await found('name.familyName ew "per"')).toEqual(['alice']);
  });

  it('finds the given name as what precedes the last word', async () => {
    expect(await found('name.givenName eq "carol ann"')).toEqual(['carol']);
    expect(await found('name.givenName sw "hop"')).toEqual(['hoppy']);
    expect(await found('name.givenName co "hopp"')).toEqual(['hoppy']);
  });

  it('finds the whole name as name.formatted and displayName', async () => {
    expect(await found('name.formatted co "hopp"')).toEqual(['alice', 'carol', 'hoppy']);
    expect(await found('displayName sw "BOB"')).toEqual(['bob']);
    expect(await found('displayName eq "dee o\'hara"')).toEqual(['dee']);
    expect(await found('name.formatted ew "JONES"')).toEqual(['hoppy']);
  });

  it('finds the one e-mail, work and primary, by any of its paths', async () => {
    expect(await found('emails[type eq "work"].value eq "carol@example.org"')).toEqual(['carol']);
    expect(await found('emails[type eq "home"].value eq "carol@example.org"')).toEqual([]);
    expect(await found('emails[primary eq true and value co "contoso"]')).toEqual(['alice']);
    expect(await found('emails.value eq "CAROL@example.org"')).toEqual(['carol']);
    expect(await found('emails co "contoso"')).toEqual(['alice']);
    expect(await found('emails[not (value ew "example.org")]')).toEqual(['alice']);
  });

  it('matches LIKE, SQL and JSON escape characters literally', async () => {
    expect(await found('emails.value co "%"')).toEqual(['dee']);
    expect(await found('emails.value co "_"')).toEqual(['dee']);
    expect(await found('emails.value co "\'"')).toEqual(['dee']);
    expect(await found('emails.value co "\\\\"')).toEqual(['dee']);
    expect(await found('emails.value co "\\""')).toEqual(['dee']);
    expect(await found('userName eq "d%e_e\'\\\\\\"x@example.org"')).toEqual(['dee']);
    expect(await found("userName eq \"x' OR '1'='1\"")).toEqual([]);
    expect(await found('externalId co "%"')).toEqual([]);
    expect(await found('externalId ew "\\\\"')).toEqual([]);
  });
});

describe('active, meta and groups', () => {
  it('reads active as booleans and as the strings Entra sends', async () => {
    expect(await found('active eq false')).toEqual(['carol']);
    expect(await found('active eq "True"')).toEqual(['alice', 'bob', 'dee', 'hoppy']);
    expect(await found('active eq True')).toEqual(['alice', 'bob', 'dee', 'hoppy']);
    expect(await found('active ne "FALSE"')).toEqual(['alice', 'bob', 'dee', 'hoppy']);
  });

  it('compares creation dates with RFC 3339 date-times', async () => {
    expect(await found('meta.created gt "2025-01-01T00:00:00Z"')).toEqual(['dee', 'hoppy']);
    expect(await found('meta.created ge "2025-01-01T00:00:00Z"')).toEqual(['carol', 'dee', 'hoppy']);
    expect(await found('meta.created lt "2024-06-01T00:00:00.000Z"')).toEqual(['alice']);
    expect(await found('meta.created le "2024-06-01T02:00:00+02:00"')).toEqual(['alice', 'bob']);
    expect(await found('meta.created eq "2024-06-01T00:00:00Z"')).toEqual(['bob']);
    expect(await found('meta.lastModified gt "2000-01-01T00:00:00Z"')).toHaveLength(5);
  });

  it('finds users by their roles as groups', async () => {
    const helpDesk = roles['Help Desk'];
    expect(await found(`groups.value eq "g${helpDesk}"`)).toEqual(['alice', 'carol']);
    expect(await found(`groups[value eq "g${helpDesk}"]`)).toEqual(['alice', 'carol']);
    // A group's id is `g` and the role's number (RFC 7643 §3.1: no group shares a user's id).
    expect(await found(`groups.value eq "${helpDesk}"`)).toEqual([]);
    expect(await found('groups.display eq "help desk"')).toEqual(['alice', 'carol']);
    expect(await found('groups[display co "sal"]')).toEqual(['bob', 'carol']);
    expect(await found('not (groups pr)')).toEqual(['dee', 'hoppy']);
    // Both conditions on one group: no role is both.
    expect(await found(`groups[value eq "g${helpDesk}" and display eq "Sales"]`)).toEqual([]);
  });
});

describe('logic', () => {
  it('takes and, or, not and grouping, and before or', async () => {
    expect(await found('userName sw "a" or userName sw "c"')).toEqual(['alice', 'carol']);
    expect(
      await found('userName eq "alice@contoso.com" or userName eq "carol@example.org" and active eq true'),
    ).toEqual(['alice']);
    expect(
      await found('(userName eq "alice@contoso.com" or userName eq "carol@example.org") and active eq true'),
    ).toEqual(['alice']);
    expect(
      await found('(userName eq "alice@contoso.com" or userName eq "carol@example.org") and not (active eq true)'),
    ).toEqual(['carol']);
    expect(await found('not (name.familyName co "hopp") and active eq true')).toEqual(['bob', 'dee', 'hoppy']);
    expect(await found('not (not (displayName sw "a"))')).toEqual(['alice']);
  });
});

describe('search terms for the trigram index', () => {
  const terms = (filter: string) => usersFilter(db, filter).searchTerms;

  it('names the substrings every match must contain in its name or e-mail', () => {
    expect(terms('name.familyName co "hopp"')).toEqual(['hopp']);
    expect(terms('name.familyName co "hopp" and emails.value sw "car" and active eq true')).toEqual(['hopp', 'car']);
    expect(terms('emails[type eq "work" and value co "contoso"]')).toEqual(['contoso']);
    expect(terms('name.givenName eq "Carol Ann"')).toEqual(['Carol Ann']);
  });

  it('leaves out short terms, terms under or/not, userName and exact lookups', () => {
    expect(terms('displayName co "ho"')).toEqual([]);
    expect(terms('displayName co "hopp" or displayName co "smith"')).toEqual([]);
    expect(terms('not (displayName co "hopp")')).toEqual([]);
    expect(terms('userName co "contoso"')).toEqual([]);
    expect(terms('emails.value eq "alice@contoso.com"')).toEqual([]);
  });
});

describe('refusals', () => {
  it('refuses attributes it cannot filter, naming them', () => {
    expectInvalidFilter(() => usersFilter(db, 'nickName eq "x"'), /"nickName"/);
    expectInvalidFilter(() => usersFilter(db, 'name.middleName eq "x"'), /"name.middleName"/);
    expectInvalidFilter(() => usersFilter(db, 'meta pr'), /"meta"/);
    expectInvalidFilter(
      () => usersFilter(db, 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:employeeNumber eq "42"'),
      /employeeNumber.*cannot be filtered yet/,
    );
    expectInvalidFilter(
      () => usersFilter(db, 'urn:ietf:params:scim:schemas:core:2.0:Group:displayName eq "x"'),
      /Group/,
    );
  });

  it('refuses an operator the attribute cannot take, or a value of the wrong type', () => {
    expectInvalidFilter(() => usersFilter(db, 'active gt true'), /"active".*"gt"/);
    expectInvalidFilter(() => usersFilter(db, 'id co "1"'), /"id".*"co"/);
    expectInvalidFilter(() => usersFilter(db, 'active eq "yes"'), /true or false/);
    expectInvalidFilter(() => usersFilter(db, 'externalId eq 5'), /string/);
    expectInvalidFilter(() => usersFilter(db, 'meta.created gt "yesterday"'), /RFC 3339/);
    expectInvalidFilter(() => usersFilter(db, 'meta.created gt "2025-13-45T00:00:00Z"'), /RFC 3339/);
  });

  it('refuses bad syntax with a reason', () => {
    for (const filter of [
      'userName eq',
      'userName eq "x" and',
      '(userName eq "x"',
      'userName eq "x',
      'userName foo "x"',
      '',
      'userName eq "\\q"',
    ]) {
      expectInvalidFilter(() => usersFilter(db, filter), /./);
    }
  });

  it('refuses a filter longer than 1 000 characters or nested deeper than 10 levels', () => {
    expectInvalidFilter(() => usersFilter(db, `userName eq "${'a'.repeat(1000)}"`), /1000 characters/);
    const deep = `${'not ('.repeat(11)}userName eq "x"${')'.repeat(11)}`;
    expectInvalidFilter(() => usersFilter(db, deep), /10 levels/);
    const nine = `${'not ('.repeat(9)}userName eq "x"${')'.repeat(9)}`;
    expect(() => usersFilter(db, nine)).not.toThrow();
  });
});
