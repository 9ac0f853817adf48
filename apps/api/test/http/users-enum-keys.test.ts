import { usersListQuery } from '@app/contracts';
import { QueryTypes } from 'sequelize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withAttributeScope } from '../../src/modules/users/users.attributes-query.js';
import { enumKeysCount } from '../../src/modules/users/users.enum-keys.js';
import { given } from '../support/given.js';
import { request } from '../support/http.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { usersApi } from '../support/users-api.js';

/**
 * The role-filtered list of an enumeration value counts on the list keys per role and
 * enumeration value (migration 0036): they must hold exactly what the values, the roles and the
 * users say after every kind of write — one by one, in bulk, by hand, a role or an attribute
 * erased, an attribute retyped — and every count taken there must be the users table's.
 */
let t: TestApp;
let admin: ReturnType<typeof usersApi>;
let caller: ReturnType<typeof request>;
const role: Record<string, number> = {};
const ids: number[] = [];
const password = { password: 'a-strong-password', password_confirmation: 'a-strong-password' };

/** What the keys must hold: derived from the values, the roles and the users, as the backfill does. */
const derived = () =>
  t.db.sequelize.query<Record<string, unknown>>(
    `SELECT v.user_id, v.attribute_id, ur.role_id, v.text_value, u.is_active
       FROM user_attribute_values v JOIN attributes a ON a.id = v.attribute_id AND a.type = 'enum'
       JOIN users u ON u.id = v.user_id JOIN user_roles ur ON ur.user_id = v.user_id
      WHERE u.deleted_at IS NULL AND v.text_value IS NOT NULL
      ORDER BY v.user_id, v.attribute_id, ur.role_id`,
    { type: QueryTypes.SELECT },
  );
const keys = () =>
  t.db.sequelize.query<Record<string, unknown>>(
    `SELECT user_id, attribute_id, role_id, text_value, is_active FROM user_role_enum_keys
      ORDER BY user_id, attribute_id, role_id`,
    { type: QueryTypes.SELECT },
  );
const plain = (rows: Array<Record<string, unknown>>) =>
  rows.map((r) => ({
    user_id: Number(r.user_id),
    attribute_id: Number(r.attribute_id),
    role_id: Number(r.role_id),
    text_value: String(r.text_value),
    is_active: Boolean(Number(r.is_active)),
  }));

async function expectKeysExact() {
  const [want, have] = await Promise.all([derived(), keys()]);
  expect(plain(have)).toEqual(plain(want));
}

const attributeId = async (key: string) => {
  const [row] = await t.db.sequelize.query<{ id: number | string }>('SELECT id FROM attributes WHERE `key` = :key', {
    replacements: { key },
    type: QueryTypes.SELECT,
  });
  return Number(row?.id);
};
const ready = async (key: string) => {
  const [row] = await t.db.sequelize.query<{ r: unknown }>(
    'SELECT enum_keys_ready AS r FROM attributes WHERE `key` = :key',
    { replacements: { key }, type: QueryTypes.SELECT },
  );
  return Number(row?.r) === 1;
};

beforeAll(async () => {
  t = await startTestApp();
  const g = given(t.db);
  for (const r of await t.db.models.Role.findAll()) role[r.name] = r.id;
  const token = await g.token((await g.user({ roles: ['admin'], name: 'Facet Admin' })).id);
  admin = usersApi(t.app, token);
  caller = request(t.app, { token });
  for (const body of [
    { key: 'team', label: 'Team', type: 'enum', values: ['Red', 'Blue', 'Green'] },
    { key: 'desk', label: 'Desk', type: 'string' },
    { key: 'grade', label: 'Grade', type: 'number' },
  ]) {
    const res = await caller.post('/api/attributes', { sensitivity: 'none', ...body });
    expect(res.statusCode, res.body).toBe(201);
  }
  // Every team with every mix of roles, some without a team, some without any role.
  const mixes = [[role.manager], [role.manager, role.viewer], [role.viewer], []] as number[][];
  for (let i = 0; i < 16; i++) {
    const res = await admin.create({
      name: `Facet ${i}`,
      email: `facet${i}@facet.test`,
      ...password,
      roles_ids: mixes[i % mixes.length],
      attributes: {
        ...(i % 5 !== 4 ? { team: ['Red', 'Blue', 'Green'][i % 3] } : {}),
        desk: `D${i % 2}`,
        grade: i % 4,
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    ids.push(res.json().item.id);
  }
}, 60_000);
afterAll(() => t.close());

describe('list keys per role and enumeration value: kept by every write', () => {
  it('follow values, roles, status and trash, one by one, in bulk and by hand', async () => {
    const [a, b, c, d, e, f, g, h] = ids as [number, number, number, number, number, number, number, number];
    expect(await ready('team')).toBe(true);
    await expectKeysExact();
    expect((await keys()).length).toBeGreaterThan(0);

    // The edit form: a new team, a cleared team, a team given, roles changed.
    for (const [id, patch] of [
      [a, { attributes: { team: 'Blue' } }],
      [b, { attributes: { team: null } }],
      [e, { attributes: { team: 'green' } }],
      [c, { roles_ids: [role.manager, role.viewer] }],
      [d, { roles_ids: [role.manager] }],
    ] as const) {
      const { item } = (await admin.edit(id)).json();
      const res = await admin.update(id, { ...item, ...patch });
      expect(res.statusCode, res.body).toBe(200);
    }
    await expectKeysExact();

    // Status and trash, one by one and in bulk; a value set in bulk; roles given and taken in bulk.
    expect((await admin.setActive(a, false)).statusCode).toBe(200);
    expect((await admin.remove(a)).statusCode).toBe(204);
    expect((await admin.bulk({ operation: 'setActive', active: false, ids: [b, c, d, f] })).statusCode).toBe(200);
    await expectKeysExact();
    expect((await admin.bulk({ operation: 'delete', ids: [c, d] })).statusCode).toBe(200);
    await expectKeysExact();
    expect((await admin.restore(a)).statusCode).toBeLessThan(300);
    expect((await admin.bulk({ operation: 'restore', ids: [c] })).statusCode).toBe(200);
    expect((await admin.bulk({ operation: 'setActive', active: true, ids: [b, c] })).statusCode).toBe(200);
    await expectKeysExact();
    const set = { operation: 'setAttribute', attribute: 'team', value: 'red', ids: [f, g, h] };
    expect((await caller.post('/api/users/bulk', set)).statusCode).toBe(200);
    expect((await admin.bulk({ operation: 'addRole', role_id: role.manager, ids: [g, h] })).statusCode).toBe(200);
    expect((await admin.bulk({ operation: 'removeRole', role_id: role.viewer, ids: [f] })).statusCode).toBe(200);
    await expectKeysExact();

    // Hand-written statements: a value, a status, a deletion and a restoration.
    const team = await attributeId('team');
    await t.db.sequelize.query(
      'UPDATE user_attribute_values SET text_value = :v WHERE attribute_id = :a AND user_id = :u',
      {
        replacements: { v: 'Green', a: team, u: g },
      },
    );
    await t.db.sequelize.query('UPDATE users SET is_active = 0 WHERE id = :id', { replacements: { id: h } });
    await t.db.sequelize.query('UPDATE users SET deleted_at = updated_at WHERE id = :id', { replacements: { id: e } });
    await t.db.sequelize.query('UPDATE users SET deleted_at = NULL WHERE id = :id', { replacements: { id: d } });
    await expectKeysExact();

    // A purge, and a role erased, take their rows with them.
    expect((await admin.bulk({ operation: 'forceDelete', ids: [e] })).statusCode).toBe(200);
    const temp = await t.db.models.Role.create({ name: 'Temporary Facet', guard_name: 'web' });
    await t.db.models.UserRole.bulkCreate([{ user_id: g, role_id: temp.id }]);
    await expectKeysExact();
    await temp.destroy();
    await expectKeysExact();
  });

  it('follow an attribute retyped out of the enumerations and back, and one erased', async () => {
    const put = (type: 'enum' | 'string') =>
      caller.put('/api/attributes/team', {
        label: 'Team',
        type,
        ...(type === 'enum' ? { values: ['Red', 'Blue', 'Green'] } : {}),
        required: false,
        unique: false,
        validators: {},
        sensitivity: 'none',
      });
    const team = await attributeId('team');
    const rowsOfTeam = async () => (await keys()).filter((k) => Number(k.attribute_id) === team).length;
    expect(await rowsOfTeam()).toBeGreaterThan(0);

    const toText = await put('string');
    expect(toText.statusCode, toText.body).toBe(200);
    // Rebuilt as a text attribute has them (none), and ready again: the list reads the type too.
    expect(await ready('team')).toBe(true);
    expect(await rowsOfTeam()).toBe(0);
    expect(
      enumKeysCount(t.db, await judged({ filters: { role_id: [role.manager], attributes: { team: 'Red' } } }), 1),
    ).toBeNull();
    await expectKeysExact();

    const back = await put('enum');
    expect(back.statusCode, back.body).toBe(200);
    expect(await ready('team')).toBe(true);
    expect(await rowsOfTeam()).toBeGreaterThan(0);
    await expectKeysExact();

    // A second enumeration, then erased: its rows go with it.
    const res = await caller.post('/api/attributes', {
      key: 'site',
      label: 'Site',
      type: 'enum',
      values: ['North', 'South'],
      sensitivity: 'none',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(await ready('site')).toBe(true);
    const set = { operation: 'setAttribute', attribute: 'site', value: 'North', ids: ids.slice(8, 14) };
    expect((await caller.post('/api/users/bulk', set)).statusCode).toBe(200);
    await expectKeysExact();
    expect((await caller.delete('/api/attributes/site')).statusCode).toBe(200);
    await expectKeysExact();
  });
});

/** A users list query as the list judges it (the caller sees every attribute). */
async function judged(input: Record<string, unknown>) {
  const parsed = usersListQuery.input.parse(input);
  return (await withAttributeScope(t.db, { permissions: new Set(['attributes.sensitive.view']) } as never, parsed))
    .query;
}

describe('list keys per role and enumeration value: the counts they give', () => {
  /** The users table's count of live users with `team` in `values`, `roleId`, and the status. */
  async function reference(values: string[], roleId: number, active?: boolean, grade?: number): Promise<number> {
    const conditions = [
      'u.deleted_at IS NULL',
      'EXISTS (SELECT 1 FROM user_roles ur WHERE ur.user_id = u.id AND ur.role_id = :roleId)',
      `EXISTS (SELECT 1 FROM user_attribute_values v WHERE v.user_id = u.id AND v.attribute_id = :team
          AND LOWER(v.text_value) IN (:values))`,
      ...(active === undefined ? [] : ['u.is_active = :active']),
      ...(grade === undefined
        ? []
        : [
            'EXISTS (SELECT 1 FROM user_attribute_values v WHERE v.user_id = u.id AND v.attribute_id = :grade AND v.number_value = :g)',
          ]),
    ];
    const [row] = await t.db.sequelize.query<{ n: number | string }>(
      `SELECT COUNT(*) AS n FROM users u WHERE ${conditions.join(' AND ')}`,
      {
        type: QueryTypes.SELECT,
        replacements: {
          roleId,
          team: await attributeId('team'),
          grade: await attributeId('grade'),
          values: values.map((v) => v.toLowerCase()),
          active: active ? 1 : 0,
          g: grade ?? 0,
        },
      },
    );
    return Number(row?.n);
  }

  const cases = [
    { values: ['Red'] },
    { values: ['blue'], active: true },
    { values: ['Red', 'Green'], active: false },
    { values: ['Green', 'Blue'] },
    { values: ['Red'], grade: 1 },
  ] as const;

  it.each(cases)('match the users table: team $values, active $active, grade $grade', async (c) => {
    for (const roleName of ['manager', 'viewer']) {
      const roleId = role[roleName] as number;
      const want = await reference(
        [...c.values],
        roleId,
        'active' in c ? c.active : undefined,
        'grade' in c ? c.grade : undefined,
      );
      const query = [
        `filters[role_id][]=${roleId}`,
        ...c.values.map((v) => `filters[attributes][team][]=${v}`),
        ...('active' in c ? [`filters[is_active]=${c.active}`] : []),
        ...('grade' in c ? [`filters[attributes][grade]=${c.grade}`] : []),
      ].join('&');
      const { meta } = (await admin.list(`?${query}`)).json();
      expect({ roleName, total: meta.total }).toEqual({ roleName, total: want });

      // The count was taken on the keys, exact and bounded alike.
      const scoped = await judged({
        filters: {
          role_id: [roleId],
          attributes: { team: [...c.values], ...('grade' in c ? { grade: String(c.grade) } : {}) },
          ...('active' in c ? { is_active: String(c.active) } : {}),
        },
      });
      expect(await enumKeysCount(t.db, scoped, null)).toBe(want);
      expect(await enumKeysCount(t.db, scoped, 1)).toBe(Math.min(want, 1));
    }
  });

  it('leave to the other counts what they do not hold', async () => {
    const manager = [role.manager];
    const red = { team: 'Red' };
    for (const input of [
      { filters: { attributes: red } },
      { filters: { role_id: manager, attributes: { desk: 'D1' } } },
      { filters: { role_id: manager, attributes: red }, q: 'facet' },
      { filters: { role_id: manager, attributes: red, trashed: 'with' } },
      { filters: { role_id: [role.manager, role.viewer], attributes: red } },
      { filters: { role_id: manager, attributes: red, created_between: { from: '2020-01-01', to: '2030-01-01' } } },
    ]) {
      expect({ input, count: enumKeysCount(t.db, await judged(input), null) }).toEqual({ input, count: null });
    }
    // The shape they hold, for contrast.
    expect(enumKeysCount(t.db, await judged({ filters: { role_id: manager, attributes: red } }), 1)).not.toBeNull();
  });
});
