import { SEEDED_ROLES } from '@app/contracts';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { versionOf } from '../../src/modules/users/users.item.js';
import { given } from '../support/given.js';
import { request } from '../support/http.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * The privilege ladder, generated: every pair of roles (the seeded three and a custom role with
 * one permission) × every mutating route and bulk operation × both doors. The expected outcome
 * is computed from the ceiling rule itself — the route's permission first (403 FORBIDDEN), then
 * "the actor holds every permission the target holds" (403 OUTRANKED; in bulk, skipped with
 * OUTRANKED), else the change is made.
 */
const CUSTOM = { name: 'deactivator', permissions: ['users.setActive'] };
const ROLES: Record<string, readonly string[]> = { ...SEEDED_ROLES, [CUSTOM.name]: CUSTOM.permissions };
const ROLE_NAMES = Object.keys(ROLES);

type TargetState = 'active' | 'inactive' | 'deleted';
interface Op {
  name: string;
  permission: string;
  /** The state the target must be in for the operation to apply at all. */
  state: TargetState;
  bulk: boolean;
  rest: (id: number, version: string) => { method: 'PUT' | 'PATCH' | 'DELETE' | 'POST'; url: string; body?: object };
  trpc: (id: number, version: string) => { procedure: string; input: object };
}

const bulk = (operation: string, state: TargetState, permission: string, extra: object = {}): Op => ({
  name: `bulk ${operation}`,
  permission,
  state,
  bulk: true,
  rest: (id) => ({ method: 'POST', url: '/api/users/bulk', body: { operation, ids: [id], ...extra } }),
  trpc: (id) => ({ procedure: 'users.bulk', input: { operation, ids: [id], ...extra } }),
});

const OPS: Op[] = [
  {
    name: 'update',
    permission: 'users.update',
    state: 'active',
    bulk: false,
    rest: (id, version) => ({
      method: 'PUT',
      url: `/api/users/${id}`,
      body: { name: 'Renamed', email: `renamed-${id}@example.com`, version },
    }),
    trpc: (id, version) => ({
      procedure: 'users.update',
      input: { id, name: 'Renamed', email: `renamed-${id}@example.com`, version },
    }),
  },
  {
    name: 'setActive',
    permission: 'users.setActive',
    state: 'active',
    bulk: false,
    rest: (id) => ({ method: 'PATCH', url: `/api/users/${id}/active`, body: { active: false } }),
    trpc: (id) => ({ procedure: 'users.setActive', input: { id, active: false } }),
  },
  {
    name: 'delete',
    permission: 'users.delete',
    state: 'inactive',
    bulk: false,
    rest: (id) => ({ method: 'DELETE', url: `/api/users/${id}` }),
    trpc: (id) => ({ procedure: 'users.delete', input: { id } }),
  },
  bulk('setActive', 'active', 'users.setActive', { active: false }),
  bulk('delete', 'inactive', 'users.delete'),
  bulk('restore', 'deleted', 'users.restore'),
  bulk('forceDelete', 'deleted', 'users.forceDelete'),
];

type Outcome = 'FORBIDDEN' | 'OUTRANKED' | 'DONE';

function expectedOutcome(actorRole: string, targetRole: string, op: Op): Outcome {
  const actor = new Set(ROLES[actorRole]);
  if (!actor.has(op.permission)) return 'FORBIDDEN';
  return (ROLES[targetRole] ?? []).every((p) => actor.has(p)) ? 'DONE' : 'OUTRANKED';
}

let t: TestApp;
const tokens = new Map<string, string>();

beforeAll(async () => {
  t = await startTestApp();
  const g = given(t.db);
  await g.role(CUSTOM.name, CUSTOM.permissions);
  for (const role of ROLE_NAMES) tokens.set(role, await g.token((await g.user({ roles: [role] })).id));
  // Spare administrators, so no deactivation here meets the last-administrator rule.
  for (let i = 0; i < 3; i++) await g.user({ roles: ['admin'] });
});
afterAll(() => t.close());

async function freshTarget(role: string, state: TargetState) {
  const user = await given(t.db).user({ roles: [role], active: state === 'active', deleted: state === 'deleted' });
  const row = await t.db.models.User.findByPk(user.id, { paranoid: false });
  return { id: user.id, version: versionOf(row as NonNullable<typeof row>) };
}

/** The outcome as a caller sees it, whichever door it came through. */
function outcomeOf(res: LightMyRequestResponse, door: 'rest' | 'trpc', op: Op, id: number): Outcome | string {
  if (res.statusCode === 204) return 'DONE';
  const body = res.json() as Record<string, unknown>;
  if (res.statusCode === 403) {
    return door === 'rest'
      ? String(body.code)
      : String((body as { error: { data: { code: string } } }).error.data.code);
  }
  if (res.statusCode >= 300) return `HTTP ${res.statusCode} ${res.body}`;
  if (!op.bulk) return 'DONE';
  const report = (door === 'rest' ? body : (body as { result: { data: object } }).result.data) as {
    affected: number[];
    skipped: Array<{ id: number; code: string }>;
  };
  if (report.affected.includes(id)) return 'DONE';
  return report.skipped.find((s) => s.id === id)?.code ?? `not in report: ${res.body}`;
}

const cases = ROLE_NAMES.flatMap((actor) =>
  ROLE_NAMES.flatMap((target) =>
    OPS.flatMap((op) =>
      (['rest', 'trpc'] as const).map((door) => ({
        actor,
        target,
        op,
        door,
        want: expectedOutcome(actor, target, op),
      })),
    ),
  ),
);

describe('the privilege ladder', () => {
  it('covers every pair of roles × every mutating route and bulk operation × both doors', () => {
    expect(cases).toHaveLength(ROLE_NAMES.length ** 2 * OPS.length * 2);
    const outranked = cases.filter((c) => c.want === 'OUTRANKED').length;
    process.stdout.write(`privilege ladder: ${cases.length} cases, ${outranked} of them outranked\n`);
    expect(outranked).toBeGreaterThan(0);
  });

  it.each(cases.map((c) => [`${c.actor} → ${c.target}: ${c.op.name} (${c.door}) = ${c.want}`, c] as const))(
    '%s',
    async (_name, { actor, target, op, door, want }) => {
      const { id, version } = await freshTarget(target, op.state);
      const caller = request(t.app, { token: tokens.get(actor) as string });
      let res: LightMyRequestResponse;
      if (door === 'rest') {
        const { method, url, body } = op.rest(id, version);
        res =
          method === 'DELETE'
            ? await caller.delete(url)
            : method === 'PUT'
              ? await caller.put(url, body)
              : method === 'PATCH'
                ? await caller.patch(url, body)
                : await caller.post(url, body);
      } else {
        const { procedure, input } = op.trpc(id, version);
        res = await caller.post(`/api/trpc/${procedure}`, input);
      }
      expect(outcomeOf(res, door, op, id)).toBe(want);
      const after = await t.db.models.User.findByPk(id, { paranoid: false });
      if (want !== 'DONE') {
        // Refused: the target is exactly as it was.
        expect(after).not.toBeNull();
        expect(versionOf(after as NonNullable<typeof after>)).toBe(version);
      }
    },
  );
});
