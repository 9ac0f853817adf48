import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { given } from '../support/given.js';
import { request } from '../support/http.js';
import { scimClient } from '../support/scim-client.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const ENTERPRISE = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';

let t: TestApp;
let adminToken: string;
let scim: ReturnType<typeof scimClient>;
let managerId: number;

const declare = (token: string, body: Record<string, unknown>) =>
  request(t.app, { token }).post('/api/attributes', { required: false, unique: false, sensitivity: 'none', ...body });

beforeAll(async () => {
  t = await startTestApp();
  const g = given(t.db);
  const admin = await g.user({ roles: ['admin'] });
  adminToken = await g.token(admin.id);
  scim = scimClient(t.app, adminToken);
  managerId = (await g.user({ name: 'Mary Manager' })).id;
  for (const body of [
    { key: 'department', label: 'Department', type: 'enum', values: ['Sales', 'Engineering'] },
    { key: 'employee_number', label: 'Employee number', type: 'string', unique: true },
    { key: 'manager', label: 'Manager', type: 'user' },
    { key: 'badge_secret', label: 'Badge secret', type: 'string', sensitivity: 'sensitive' },
  ]) {
    expect((await declare(adminToken, body)).statusCode).toBe(201);
  }
});
afterAll(() => t.close());

const putMapping = (token: string, mapping: Record<string, string | null>) =>
  request(t.app, { token }).put('/api/scim/enterprise-mapping', { mapping });

describe('the enterprise mapping', () => {
  it('refuses a field mapped onto an attribute of the wrong type, twice, or unknown; holders of attributes.manage only', async () => {
    const wrongType = await putMapping(adminToken, { department: 'manager' });
    expect(wrongType.statusCode).toBe(422);
    expect(wrongType.json().errors['mapping.department'][0]).toMatch(/string or enum/);
    const twice = await putMapping(adminToken, { department: 'department', division: 'department' });
    expect(twice.statusCode).toBe(422);
    expect((await putMapping(adminToken, { costCenter: 'no_such' })).statusCode).toBe(422);
    const viewer = await given(t.db).token((await given(t.db).user({ roles: ['viewer'] })).id);
    expect((await putMapping(viewer, { department: 'department' })).statusCode).toBe(403);
  });

  it('maps fields, lists exactly them in /Schemas, and carries values both ways', async () => {
    const saved = await putMapping(adminToken, {
      employeeNumber: 'employee_number',
      department: 'department',
      manager: 'manager',
      organization: 'badge_secret',
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json().item.mapping).toEqual({
      employeeNumber: 'employee_number',
      costCenter: null,
      organization: 'badge_secret',
      division: null,
      department: 'department',
      manager: 'manager',
    });

    const schemas = (await scim.get('/Schemas')).json().Resources as { id: string; attributes: { name: string }[] }[];
    const extension = schemas.find((s) => s.id === ENTERPRISE);
    expect(extension?.attributes.map((a) => a.name).sort()).toEqual([
      'department',
      'employeeNumber',
      'manager',
      'organization',
    ]);
    const userType = (await scim.get('/ResourceTypes/User')).json();
    expect(userType.schemaExtensions).toEqual([{ schema: ENTERPRISE, required: false }]);

    const created = await scim.post('/Users', {
      schemas: [USER, ENTERPRISE],
      userName: 'enterprise.person@example.com',
      name: { givenName: 'Enid', familyName: 'Prise' },
      emails: [{ value: 'enterprise.person@example.com', primary: true }],
      [ENTERPRISE]: {
        EmployeeNumber: 'E-0042',
        department: 'sales',
        division: 'Not mapped: ignored',
        manager: { value: String(managerId) },
      },
    });
    expect(created.statusCode).toBe(201);
    const user = created.json();
    expect(user.schemas).toEqual([USER, ENTERPRISE]);
    expect(user[ENTERPRISE]).toEqual({
      employeeNumber: 'E-0042',
      department: 'Sales',
      manager: { value: String(managerId), $ref: expect.stringMatching(new RegExp(`/Users/${managerId}$`)) },
    });
    const shown = await request(t.app, { token: adminToken }).get(`/api/users/${user.id}`);
    expect(shown.json().item.attributes).toMatchObject({
      employee_number: 'E-0042',
      department: 'Sales',
      manager: managerId,
    });

    const patched = await scim.patch(`/Users/${user.id}`, {
      schemas: [PATCH],
      Operations: [
        { op: 'Replace', path: `${ENTERPRISE}:department`, value: 'Engineering' },
        { op: 'Remove', path: `${ENTERPRISE}:manager` },
      ],
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json()[ENTERPRISE]).toEqual({ employeeNumber: 'E-0042', department: 'Engineering' });

    // A PUT without the extension leaves its fields as they are.
    const replaced = await scim.put(`/Users/${user.id}`, {
      schemas: [USER],
      userName: 'enterprise.person@example.com',
      name: { formatted: 'Enid Prise' },
      emails: [{ value: 'enterprise.person@example.com', primary: true }],
    });
    expect(replaced.json()[ENTERPRISE]).toEqual({ employeeNumber: 'E-0042', department: 'Engineering' });

    const bad = await scim.patch(`/Users/${user.id}`, {
      schemas: [PATCH],
      Operations: [{ op: 'replace', path: `${ENTERPRISE}:department`, value: 'Astrology' }],
    });
    expect(bad.json()).toMatchObject({ status: '400', scimType: 'invalidValue' });
  });

  it('a sensitive attribute is no field for a token whose owner may not see it', async () => {
    const g = given(t.db);
    await g.role('provisioner', ['users.view', 'users.create', 'users.update']);
    const token = await g.token((await g.user({ roles: ['provisioner'] })).id);
    const limited = scimClient(t.app, token);
    const schemas = (await limited.get('/Schemas')).json().Resources as {
      id: string;
      attributes: { name: string }[];
    }[];
    expect(schemas.find((s) => s.id === ENTERPRISE)?.attributes.map((a) => a.name)).not.toContain('organization');
    const created = await limited.post('/Users', {
      schemas: [USER, ENTERPRISE],
      userName: 'no.secret@example.com',
      emails: [{ value: 'no.secret@example.com', primary: true }],
      [ENTERPRISE]: { organization: 'TOP-SECRET-BADGE' },
    });
    expect(created.statusCode).toBe(201);
    expect(created.body).not.toContain('TOP-SECRET-BADGE');
    const stored = await request(t.app, { token: adminToken }).get(`/api/users/${created.json().id}`);
    expect(stored.json().item.attributes.badge_secret).toBeUndefined();
  });
});
