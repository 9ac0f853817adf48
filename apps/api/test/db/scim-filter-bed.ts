import { QueryTypes } from 'sequelize';
import { expect } from 'vitest';
import type { Database } from '../../src/db/database.js';
import { sqlDate } from '../../src/db/sql-date.js';
import { ScimError } from '../../src/scim/scim-error.js';
import { given } from '../support/given.js';

/**
 * The people the SCIM filter tests look for (test/db/scim-filter*.test.ts): names, e-mails,
 * userNames, external ids, roles and creation dates chosen so each filter picks a known few.
 */
export const PEOPLE = {
  alice: {
    name: 'Alice Hopper',
    email: 'alice@contoso.com',
    ext: 'ext-A',
    roles: ['Help Desk'],
    created: '2024-01-10',
  },
  // Entra's UPN-style userName beside the mail.
  bob: {
    name: 'Bob Smith',
    email: 'bob@example.org',
    userName: 'Bob.Smith@contoso.onmicrosoft.com',
    ext: 'ext-b',
    roles: ['Sales'],
    created: '2024-06-01',
  },
  carol: {
    name: 'Carol Ann Hoppe',
    email: 'carol@example.org',
    active: false,
    roles: ['Help Desk', 'Sales'],
    created: '2025-01-01',
  },
  // LIKE's and SQL's own characters, a backslash and a double quote, all to be matched literally.
  dee: { name: "Dee O'Hara", email: `d%e_e'\\"x@example.org`, created: '2025-06-01' },
  hoppy: { name: 'Hoppy Jones', email: 'hoppy@example.org', ext: 'okta-00u1', created: '2026-01-01' },
} as const;

export type Person = keyof typeof PEOPLE;

interface Spec {
  name: string;
  email: string;
  userName?: string;
  ext?: string;
  active?: boolean;
  roles?: readonly string[];
  created: string;
}

/** Seeds the roles and the people; answers their ids by key, and the roles' ids by name. */
export async function seedPeople(
  db: Database,
): Promise<{ ids: Record<Person, number>; roles: Record<string, number> }> {
  const roles: Record<string, number> = {};
  for (const role of ['Help Desk', 'Sales', 'Sales – EMEA']) roles[role] = await given(db).role(role, []);
  const ids = {} as Record<Person, number>;
  for (const [key, p] of Object.entries(PEOPLE) as [Person, Spec][]) {
    const user = await given(db).user({
      name: p.name,
      email: p.email,
      active: p.active ?? true,
      roles: [...(p.roles ?? [])],
    });
    await db.sequelize.query(
      'UPDATE users SET user_name = :userName, external_id = :ext, created_at = :created WHERE id = :id',
      {
        type: QueryTypes.UPDATE,
        replacements: {
          userName: p.userName ?? null,
          ext: p.ext ?? null,
          created: sqlDate(db, new Date(`${p.created}T00:00:00Z`)),
          id: user.id,
        },
      },
    );
    ids[key] = user.id;
  }
  return { ids, roles };
}

/** Expects `run` to refuse with a SCIM 400 invalidFilter whose detail mentions `mentions`. */
export function expectInvalidFilter(run: () => unknown, mentions: string | RegExp): void {
  let thrown: unknown;
  try {
    run();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(ScimError);
  const e = thrown as ScimError;
  expect({ status: e.status, scimType: e.scimType }).toEqual({ status: 400, scimType: 'invalidFilter' });
  expect(e.message).toMatch(mentions);
}
