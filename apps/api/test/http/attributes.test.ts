import { QueryTypes } from 'sequelize';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { given } from '../support/given.js';
import { request } from '../support/http.js';
import { auditRows } from '../support/jobs-bed.js';
import { outboxEvents, subscribe } from '../support/webhooks.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * The declared schema of custom attributes (issue 38): CRUD under `attributes.manage`, the rules
 * between a definition's fields, and what a change does to the values users already hold.
 */

let t: TestApp;
let admin: ReturnType<typeof request>;
let manager: ReturnType<typeof request>;

const department = {
  key: 'department',
  label: 'Department',
  type: 'string',
  description: 'Where the person works.',
};

beforeAll(async () => {
  t = await startTestApp();
  const a = await given(t.db).user({ roles: ['admin'] });
  admin = request(t.app, { token: await given(t.db).token(a.id) });
  const m = await given(t.db).user({ roles: ['manager'] });
  manager = request(t.app, { token: await given(t.db).token(m.id) });
  await subscribe(t.db, ['attribute.created', 'attribute.updated', 'attribute.deleted']);
});
afterAll(() => t.close());

/** Values written as the value door will write them (that door comes with the values' own step). */
async function hold(key: string, values: Array<{ text?: string; number?: number }>) {
  const [{ id } = { id: 0 }] = await t.db.sequelize.query<{ id: number }>(
    'SELECT id FROM attributes WHERE `key` = :key',
    {
      replacements: { key },
      type: QueryTypes.SELECT,
    },
  );
  const users: number[] = [];
  for (const v of values) {
    const user = await given(t.db).user();
    users.push(user.id);
    await t.db.sequelize.query(
      'INSERT INTO user_attribute_values (attribute_id, user_id, text_value, number_value) VALUES (:id, :user, :text, :number)',
      { replacements: { id, user: user.id, text: v.text ?? null, number: v.number ?? null } },
    );
  }
  return { id: Number(id), users };
}

async function valuesOf(attributeId: number) {
  return t.db.sequelize.query<{ user_id: number; text_value: string | null; number_value: number | null }>(
    'SELECT user_id, text_value, number_value FROM user_attribute_values WHERE attribute_id = :id ORDER BY user_id',
    { replacements: { id: attributeId }, type: QueryTypes.SELECT },
  );
}

describe('who may manage attributes', () => {
  it('answers 401 without credentials and 403 naming attributes.manage to a manager', async () => {
    expect((await request(t.app).get('/api/attributes')).statusCode).toBe(401);
    const res = await manager.post('/api/attributes', { ...department, key: 'nope' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'FORBIDDEN', permission: 'attributes.manage' });
    expect((await manager.get('/api/attributes')).statusCode).toBe(403);
  });
});

describe('declaring attributes', () => {
  it('creates one (201), lists it with its holders, shows it by key, and audits the declaration', async () => {
    const res = await admin.post('/api/attributes', department);
    expect(res.statusCode).toBe(201);
    expect(res.json().item).toMatchObject({
      key: 'department',
      label: 'Department',
      type: 'string',
      values: null,
      required: false,
      unique: false,
      validators: {},
      sensitivity: 'none',
      description: 'Where the person works.',
      holders: 0,
    });
    const list = (await admin.get('/api/attributes')).json();
    expect(list.rows.map((r: { key: string }) => r.key)).toContain('department');
    expect((await admin.get('/api/attributes/department')).json().item.label).toBe('Department');
    expect((await admin.get('/api/attributes/nothing_here')).statusCode).toBe(404);
    const [audit] = await auditRows(t.db, 'attribute.create');
    expect(audit?.changes).toMatchObject({
      key: { before: null, after: 'department' },
      type: { before: null, after: 'string' },
    });
  });

  it('refuses a key taken, a key of the wrong shape, and definitions whose fields disagree (422, by field)', async () => {
    const taken = await admin.post('/api/attributes', department);
    expect(taken.statusCode).toBe(422);
    expect(taken.json().errors.key).toEqual(['There is already an attribute with the key "department".']);
    const shape = await admin.post('/api/attributes', { ...department, key: 'Cost-Centre' });
    expect(shape.statusCode).toBe(422);
    expect(Object.keys(shape.json().errors)).toEqual(['key']);
    const enumWithout = await admin.post('/api/attributes', { key: 'grade', label: 'Grade', type: 'enum' });
    expect(enumWithout.json().errors.values).toEqual(['List the values people can pick.']);
    const boundOnText = await admin.post('/api/attributes', {
      key: 'title',
      label: 'Title',
      type: 'string',
      validators: { min: 3 },
    });
    expect(boundOnText.json().errors['validators.min']).toEqual(['Bounds apply to number and date attributes only.']);
    // A pattern RE2 cannot run in linear time is refused before it can ever run.
    const backReference = await admin.post('/api/attributes', {
      key: 'code',
      label: 'Code',
      type: 'string',
      validators: { pattern: '(a)\\1' },
    });
    expect(backReference.statusCode).toBe(422);
    expect(backReference.json().errors['validators.pattern']).toHaveLength(1);
  });

  // `constructor` has a key's shape, but both doors refuse it (and `prototype`) as a key anywhere
  // in a body, so an attribute so named could be declared and never given a value.
  it('refuses constructor and prototype as keys on both doors, since no body could carry their values', async () => {
    for (const key of ['constructor', 'prototype']) {
      const rest = await admin.post('/api/attributes', { key, label: 'Reserved', type: 'string' });
      expect(rest.statusCode, rest.body).toBe(422);
      expect(rest.json().errors.key).toEqual([
        '“constructor” and “prototype” cannot be keys: request bodies refuse those names. Choose another key.',
      ]);
      const trpc = await admin.post('/api/trpc/attributes.create', { key, label: 'Reserved', type: 'string' });
      expect(trpc.statusCode, trpc.body).toBe(422);
      expect(trpc.json().error.data.errors.key).toEqual(rest.json().errors.key);
    }
    expect((await admin.get('/api/attributes')).json().rows.map((a: { key: string }) => a.key)).not.toContain(
      'constructor',
    );
  });
});

describe('changing an attribute users hold', () => {
  it('answers the impact of a type change, refuses it while values would break, and clears them when told', async () => {
    await admin.post('/api/attributes', { key: 'floor', label: 'Floor', type: 'string' });
    const { id, users } = await hold('floor', [{ text: '3' }, { text: 'mezzanine' }, { text: '12' }]);
    const asNumber = { label: 'Floor', type: 'number', validators: { max: 10 } };

    const dry = await admin.put('/api/attributes/floor', { ...asNumber, dryRun: true });
    expect(dry.statusCode).toBe(200);
    expect(dry.json()).toEqual({ impact: { holders: 3, failing: 2 } });
    expect((await admin.get('/api/attributes/floor')).json().item.type).toBe('string');

    const refused = await admin.put('/api/attributes/floor', asNumber);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'ATTRIBUTE_CONFLICT', impact: { holders: 3, failing: 2 } });

    const cleared = await admin.put('/api/attributes/floor', { ...asNumber, onConflict: 'clear' });
    expect(cleared.statusCode).toBe(200);
    expect(cleared.json().item).toMatchObject({ type: 'number', validators: { max: 10 }, holders: 1 });
    // "3" is kept as the number 3; "mezzanine" (not a number) and 12 (above the maximum) are gone.
    expect(await valuesOf(id)).toEqual([{ user_id: users[0], text_value: null, number_value: 3 }]);
    const [audit] = await auditRows(t.db, 'attribute.update');
    expect(audit?.changes).toMatchObject({ type: { before: 'string', after: 'number' } });
    expect(audit?.context).toMatchObject({ cleared: 2 });
  });

  it('counts values another user shares, letter case aside, as breaking once the attribute is unique', async () => {
    await admin.post('/api/attributes', { key: 'badge', label: 'Badge', type: 'string' });
    await hold('badge', [{ text: 'A-1' }, { text: 'a-1' }, { text: 'B-2' }]);
    const dry = await admin.put('/api/attributes/badge', {
      label: 'Badge',
      type: 'string',
      unique: true,
      dryRun: true,
    });
    expect(dry.json()).toEqual({ impact: { holders: 3, failing: 2 } });
    const done = await admin.put('/api/attributes/badge', {
      label: 'Badge',
      type: 'string',
      unique: true,
      onConflict: 'clear',
    });
    expect(done.json().item).toMatchObject({ unique: true, holders: 1 });
  });

  it('changes what breaks nothing at once: a new label and more enumeration values', async () => {
    await admin.post('/api/attributes', { key: 'site', label: 'Site', type: 'enum', values: ['Paris', 'Lyon'] });
    await hold('site', [{ text: 'Paris' }]);
    const res = await admin.put('/api/attributes/site', {
      label: 'Office',
      type: 'enum',
      values: ['Paris', 'Lyon', 'Nice'],
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().item).toMatchObject({ label: 'Office', values: ['Paris', 'Lyon', 'Nice'], holders: 1 });
  });
});

describe('removing an attribute', () => {
  it('answers what would go on a dry run, then removes the attribute with every value and audits it', async () => {
    await admin.post('/api/attributes', { key: 'locker', label: 'Locker', type: 'number' });
    const { id } = await hold('locker', [{ number: 1 }, { number: 2 }]);
    const dry = await admin.delete('/api/attributes/locker?dryRun=true');
    expect(dry.statusCode).toBe(200);
    expect(dry.json()).toEqual({ impact: { holders: 2, failing: 2 } });
    expect(await valuesOf(id)).toHaveLength(2);
    const gone = await admin.delete('/api/attributes/locker');
    expect(gone.statusCode).toBe(200);
    expect(gone.json()).toEqual({ impact: { holders: 2, failing: 2 } });
    expect(await valuesOf(id)).toEqual([]);
    expect((await admin.get('/api/attributes/locker')).statusCode).toBe(404);
    const [audit] = await auditRows(t.db, 'attribute.delete');
    expect(audit?.context).toMatchObject({ values_removed: 2 });
  });
});

describe('the tRPC door', () => {
  it('answers the same refusal, with the impact, to the SPA', async () => {
    await admin.post('/api/attributes', { key: 'room', label: 'Room', type: 'string' });
    await hold('room', [{ text: 'A' }]);
    const res = await admin.post('/api/trpc/attributes.update', { key: 'room', label: 'Room', type: 'number' });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.data).toMatchObject({ code: 'ATTRIBUTE_CONFLICT', impact: { holders: 1, failing: 1 } });
  });
});

describe('webhook events', () => {
  const eventsFor = async (type: string, key: string) =>
    (await outboxEvents(t.db)).filter(
      (e) => e.type === type && (e.payload.data.attribute as { key: string } | undefined)?.key === key,
    );

  it('announces a declaration, a change with what moved, and a removal with the definition as it was', async () => {
    await admin.post('/api/attributes', {
      key: 'cost_centre',
      label: 'Cost centre',
      type: 'string',
      sensitivity: 'personal',
    });
    const [created] = await eventsFor('attribute.created', 'cost_centre');
    expect(created?.payload.data).toEqual({
      attribute: {
        key: 'cost_centre',
        label: 'Cost centre',
        type: 'string',
        values: null,
        required: false,
        unique: false,
        validators: {},
        sensitivity: 'personal',
        description: null,
      },
    });
    await admin.put('/api/attributes/cost_centre', { label: 'Cost center', type: 'string', sensitivity: 'personal' });
    const [updated] = await eventsFor('attribute.updated', 'cost_centre');
    expect(updated?.payload.data).toMatchObject({
      attribute: { key: 'cost_centre', label: 'Cost center' },
      changes: { label: { from: 'Cost centre', to: 'Cost center' } },
    });
    // A dry run changes nothing, so it announces nothing.
    await admin.put('/api/attributes/cost_centre', { label: 'CC', type: 'string', dryRun: true });
    expect(await eventsFor('attribute.updated', 'cost_centre')).toHaveLength(1);
    await admin.delete('/api/attributes/cost_centre');
    const [deleted] = await eventsFor('attribute.deleted', 'cost_centre');
    expect(deleted?.payload.data).toMatchObject({ attribute: { key: 'cost_centre', label: 'Cost center' } });
  });
});
