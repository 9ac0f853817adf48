import { PERMISSIONS } from '@app/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../src/auth/actor.js';
import { judgeRoleChange, type RoleChange, type RoleSubject } from '../../src/domain/roles.rules.js';
import { given } from '../support/given.js';
import { DOORS, doneStatus, roleState, rolesApi } from '../support/roles-api.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * The privilege ladder of roles, generated: actors (an administrator, a role keeper holding the
 * roles.* permissions but not every permission, a viewer) × target roles (the administrator
 * role, one like the seeded manager, a small one) × operations (saving the role unchanged,
 * deleting it, creating a role granting what it grants) × both doors. The expected outcome is
 * the rule's own verdict (`judgeRoleChange`): a refusal's code, else the change is made.
 */
const KEEPER = ['users.view', 'roles.view', 'roles.create', 'roles.update', 'roles.delete'];
const ACTORS: Record<string, readonly string[]> = {
  admin: PERMISSIONS,
  keeper: KEEPER,
  viewer: ['users.view', 'roles.view'],
};
const TARGETS: Record<string, readonly string[]> = {
  admin: PERMISSIONS,
  managerLike: ['users.view', 'users.update', 'users.setActive', 'users.export', 'roles.view'],
  small: ['users.view'],
};
const OPS = ['update', 'delete', 'create'] as const;
type Op = (typeof OPS)[number];

let t: TestApp;
const tokens = new Map<string, string>();
let serial = 0;

beforeAll(async () => {
  t = await startTestApp();
  const g = given(t.db);
  await g.role('keeper', KEEPER);
  for (const actor of Object.keys(ACTORS)) tokens.set(actor, await g.token((await g.user({ roles: [actor] })).id));
  await g.user({ roles: ['admin'] });
});
afterAll(() => t.close());

const actorOf = (name: string): Actor => ({
  id: 1,
  name,
  email: `${name}@example.com`,
  permissions: new Set(ACTORS[name]),
});

/** The target role of one case: the administrator role itself, or a fresh role granting the same. */
async function subjectFor(target: string): Promise<RoleSubject> {
  const permissions = [...(TARGETS[target] ?? [])];
  if (target === 'admin') {
    const role = await t.db.models.Role.findOne({ where: { name: 'admin' } });
    return { id: role?.id as number, name: 'admin', permissions };
  }
  const name = `${target}-${++serial}`;
  return { id: await given(t.db).role(name, permissions), name, permissions };
}

function changeOf(op: Op, role: RoleSubject, newName: string): RoleChange {
  if (op === 'update') return { kind: 'update', role, name: role.name, permissions: role.permissions };
  if (op === 'delete') return { kind: 'delete', role };
  return { kind: 'create', name: newName, permissions: role.permissions };
}

const cases = Object.keys(ACTORS).flatMap((actor) =>
  Object.keys(TARGETS).flatMap((target) => OPS.flatMap((op) => DOORS.map((door) => ({ actor, target, op, door })))),
);

describe('the privilege ladder of roles', () => {
  it('covers every actor × target role × operation × door, with refusals of each kind', async () => {
    expect(cases).toHaveLength(3 * 3 * 3 * 2);
    const verdicts = cases.map(({ actor, target, op }) => {
      const role = { id: 1, name: target, permissions: TARGETS[target] ?? [] };
      return judgeRoleChange(actorOf(actor), changeOf(op, role, 'new'), 'admin')?.code ?? 'DONE';
    });
    for (const code of ['DONE', 'FORBIDDEN', 'OUTRANKED', 'ROLE_PROTECTED']) expect(verdicts).toContain(code);
  });

  it.each(cases.map((c) => [`${c.actor} → ${c.target}: ${c.op} (${c.door})`, c] as const))(
    '%s',
    async (_name, { actor, target, op, door }) => {
      const role = await subjectFor(target);
      const newName = `created-${++serial}`;
      const want = judgeRoleChange(actorOf(actor), changeOf(op, role, newName), 'admin')?.code ?? 'DONE';
      const before = await roleState(t.db, role.id);
      const api = rolesApi(t.app, tokens.get(actor) as string, door);
      const res =
        op === 'update'
          ? await api.update(role.id, { name: role.name, permissions: role.permissions, version: before?.version })
          : op === 'delete'
            ? await api.remove(role.id)
            : await api.create({ name: newName, permissions: role.permissions });
      expect(res.status === doneStatus(door, op) ? 'DONE' : res.code, JSON.stringify(res)).toBe(want);
      const after = await roleState(t.db, role.id);
      if (want !== 'DONE') {
        // Refused: the role is exactly as it was, and nothing was created.
        expect(after).toEqual(before);
        if (op === 'create') expect(await t.db.models.Role.count({ where: { name: newName } })).toBe(0);
      } else if (op === 'delete') {
        expect(after).toBeNull();
      } else if (op === 'update') {
        expect(after?.version).not.toBe(before?.version);
      }
    },
  );
});
