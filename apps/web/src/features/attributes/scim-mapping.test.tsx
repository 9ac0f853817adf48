import type { Attribute, Permission, ScimMapping } from '@app/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { attributesMessages } from '../../i18n/attributes-messages';
import { en } from '../../i18n/en';
import { apiToken } from '../../test/integration-fixtures';
import { renderApp } from '../../test/render-app';
import { fail, mockTrpc, ok, sessionOf } from '../../test/trpc-mock';

const t = attributesMessages.scimMapping;

const attribute = (key: string, label: string, type: Attribute['type'], more: Partial<Attribute> = {}): Attribute => ({
  key,
  label,
  type,
  values: type === 'enum' ? ['Sales', 'Support'] : null,
  required: false,
  unique: false,
  validators: {},
  sensitivity: 'none',
  description: null,
  holders: 0,
  created_at: '2026-11-28T10:00:00.000Z',
  updated_at: '2026-11-28T10:00:00.000Z',
  ...more,
});
const ATTRIBUTES = [
  attribute('employee_id', 'Employee ID', 'string'),
  attribute('team', 'Team', 'enum'),
  attribute('salary_band', 'Salary band', 'string', { sensitivity: 'sensitive' }),
  attribute('line_manager', 'Line manager', 'user'),
  attribute('start_date', 'Start date', 'date'),
];
const UNMAPPED: ScimMapping = {
  employeeNumber: null,
  costCenter: null,
  organization: null,
  division: null,
  department: null,
  manager: null,
};
const answer = (mapping: ScimMapping) => ok({ item: { mapping } });

function mockApi(mapping: ScimMapping = UNMAPPED, more: Parameters<typeof mockTrpc>[0] = {}) {
  return mockTrpc({
    'auth.me': ok(sessionOf(['attributes.manage'])),
    'attributes.list': ok({
      rows: ATTRIBUTES,
      meta: { page: 1, perPage: 100, total: ATTRIBUTES.length, totalExact: true, pageCount: 1 },
    }),
    'scimMapping.show': answer(mapping),
    'scimMapping.update': (input) => answer((input as { mapping: ScimMapping }).mapping),
    ...more,
  });
}

const card = async () => screen.findByRole('region', { name: t.title });
const select = (label: string) => screen.getByLabelText(label) as HTMLSelectElement;
const choose = (label: string, value: string) => fireEvent.change(select(label), { target: { value } });
const options = (label: string) => Array.from(select(label).options, (o) => o.textContent);

describe('the SCIM enterprise mapping on the attributes page', { timeout: 20_000 }, () => {
  it('shows each enterprise field with what the server maps it onto, offering only attributes of a type it takes', async () => {
    mockApi({ ...UNMAPPED, employeeNumber: 'employee_id', manager: 'line_manager' });
    renderApp('/settings/attributes');

    const region = await card();
    await within(region).findByLabelText(t.fields.employeeNumber);
    expect(within(region).getByText(t.description)).toBeTruthy();
    expect(within(region).getByText(t.sensitiveNote)).toBeTruthy();
    expect(within(region).getByText('costCenter')).toBeTruthy();
    expect(select(t.fields.employeeNumber).value).toBe('employee_id');
    expect(select(t.fields.department).value).toBe('');
    expect(select(t.fields.manager).value).toBe('line_manager');
    expect(options(t.fields.department)).toEqual([t.notMapped, 'Employee ID', 'Team', t.sensitive('Salary band')]);
    expect(options(t.fields.manager)).toEqual([t.notMapped, 'Line manager']);
    expect((within(region).getByRole('button', { name: t.save }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('saves the fields chosen, with a toast, and waits for the next change', async () => {
    const api = mockApi();
    renderApp('/settings/attributes');

    const region = await card();
    await within(region).findByLabelText(t.fields.department);
    choose(t.fields.department, 'team');
    choose(t.fields.employeeNumber, 'employee_id');
    const save = within(region).getByRole('button', { name: t.save }) as HTMLButtonElement;
    expect(save.disabled).toBe(false);
    fireEvent.click(save);

    expect(await screen.findByText(t.saved)).toBeTruthy();
    expect(api.callsTo('scimMapping.update')).toEqual([
      { mapping: { ...UNMAPPED, department: 'team', employeeNumber: 'employee_id' } },
    ]);
    await waitFor(() =>
      expect((within(region).getByRole('button', { name: t.save }) as HTMLButtonElement).disabled).toBe(true),
    );
    expect(select(t.fields.department).value).toBe('team');
  });

  it('enables Save only while the choice differs from what is saved', async () => {
    mockApi({ ...UNMAPPED, division: 'team' });
    renderApp('/settings/attributes');

    const region = await card();
    await within(region).findByLabelText(t.fields.division);
    const save = within(region).getByRole('button', { name: t.save }) as HTMLButtonElement;
    choose(t.fields.division, '');
    expect(save.disabled).toBe(false);
    choose(t.fields.division, 'team');
    expect(save.disabled).toBe(true);
  });

  it('refuses one attribute for two fields before sending, naming the field that has it', async () => {
    const api = mockApi({ ...UNMAPPED, department: 'team' });
    renderApp('/settings/attributes');

    const region = await card();
    await within(region).findByLabelText(t.fields.division);
    choose(t.fields.division, 'team');
    const message = t.duplicate('Team', t.fields.department);
    expect(within(region).getByText(message)).toBeTruthy();
    expect(select(t.fields.division).getAttribute('aria-invalid')).toBe('true');
    expect(select(t.fields.department).getAttribute('aria-invalid')).toBeNull();
    fireEvent.click(within(region).getByRole('button', { name: t.save }));

    await waitFor(() => expect(document.activeElement).toBe(select(t.fields.division)));
    expect(api.callsTo('scimMapping.update')).toEqual([]);
    // Choosing another attribute lifts the refusal.
    choose(t.fields.division, 'employee_id');
    expect(within(region).queryByText(message)).toBeNull();
  });

  it('shows the server’s refusal on its field, and keeps the choice', async () => {
    const refusal = 'There is no attribute "team".';
    mockApi(UNMAPPED, {
      'scimMapping.update': fail({
        message: refusal,
        code: 'VALIDATION_FAILED',
        httpStatus: 422,
        errors: { 'mapping.costCenter': [refusal] },
      }),
    });
    renderApp('/settings/attributes');

    const region = await card();
    await within(region).findByLabelText(t.fields.costCenter);
    choose(t.fields.costCenter, 'team');
    fireEvent.click(within(region).getByRole('button', { name: t.save }));

    expect(await within(region).findByText(refusal)).toBeTruthy();
    expect(select(t.fields.costCenter).getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(select(t.fields.costCenter));
    expect(select(t.fields.costCenter).value).toBe('team');
    expect((within(region).getByRole('button', { name: t.save }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('says so when the mapping cannot be loaded, and loads it on retry', async () => {
    let tries = 0;
    mockApi(UNMAPPED, {
      'scimMapping.show': () =>
        ++tries === 1
          ? fail({ message: 'The database is unavailable.', code: 'INTERNAL_SERVER_ERROR', httpStatus: 500 })
          : answer(UNMAPPED),
    });
    renderApp('/settings/attributes');

    const region = await card();
    expect(await within(region).findByText(t.loadFailed, {}, { timeout: 10_000 })).toBeTruthy();
    fireEvent.click(within(region).getByRole('button', { name: en.common.retry }));
    expect(await within(region).findByLabelText(t.fields.manager)).toBeTruthy();
  });
});

describe('the way to the mapping from “Connect an identity provider”', { timeout: 20_000 }, () => {
  async function lastStep(granted: readonly Permission[]) {
    mockTrpc({
      'auth.me': ok(sessionOf(granted)),
      'tokens.list': ok({ items: [] }),
      'tokens.options': ok({ scopes: granted }),
      'tokens.create': ok({ item: apiToken({ name: 'SCIM provisioning' }), token: 'uat_7_secret' }),
    });
    renderApp('/account/tokens');
    fireEvent.click(await screen.findByRole('button', { name: en.tokens.provisioning.open }));
    await screen.findByLabelText(en.tokens.form.name);
    fireEvent.click(screen.getByRole('button', { name: en.tokens.form.submit }));
    return screen.findByRole('dialog', { name: en.tokens.provisioning.connect.title });
  }
  const c = en.tokens.provisioning.connect;

  it('links holders of attributes.manage to the mapping card, in a new tab', async () => {
    const dialog = await lastStep(['users.view', 'users.create', 'attributes.manage']);
    const link = within(dialog).getByRole('link', { name: `${c.mapFields} ${c.newTab}` });
    expect(link.getAttribute('href')).toBe('/settings/attributes#scim-provisioning');
    expect(link.getAttribute('target')).toBe('_blank');
  });

  it('offers no such link to an administrator who cannot manage attributes', async () => {
    const dialog = await lastStep(['users.view', 'users.create']);
    expect(within(dialog).queryByRole('link', { name: `${c.mapFields} ${c.newTab}` })).toBeNull();
  });
});
