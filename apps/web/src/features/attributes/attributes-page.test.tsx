import type { Attribute } from '@app/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { attributesMessages } from '../../i18n/attributes-messages';
import { en } from '../../i18n/en';
import { renderApp } from '../../test/render-app';
import { fail, mockTrpc, ok, sessionOf } from '../../test/trpc-mock';

const m = attributesMessages;
const f = m.attributeForm;

const attribute = (more: Partial<Attribute> = {}): Attribute => ({
  key: 'department',
  label: 'Department',
  type: 'enum',
  values: ['Sales', 'Support', 'Legal'],
  required: false,
  unique: false,
  validators: {},
  sensitivity: 'none',
  description: null,
  holders: 1204,
  created_at: '2026-11-28T10:00:00.000Z',
  updated_at: '2026-11-28T10:00:00.000Z',
  ...more,
});
const employeeNumber = attribute({
  key: 'employee_number',
  label: 'Employee number',
  type: 'string',
  values: null,
  unique: true,
  validators: { pattern: '[0-9]{6}' },
  sensitivity: 'personal',
  holders: 0,
});
// The page's SCIM card asks for the enterprise mapping too; these tests leave it loading.
const list = (rows: Attribute[]) =>
  ok({ rows, meta: { page: 1, perPage: 100, total: rows.length, totalExact: true, pageCount: 1 } });
const type = (label: string, value: string) => fireEvent.change(screen.getByLabelText(label), { target: { value } });

describe('attributes settings', { timeout: 20_000 }, () => {
  it('lists the declared attributes for holders of attributes.manage, from the navigation', async () => {
    mockTrpc({
      'auth.me': ok(sessionOf(['attributes.manage'])),
      'scimMapping.show': 'pending',
      'attributes.list': list([attribute(), employeeNumber]),
    });
    renderApp('/account');
    fireEvent.click(await screen.findByRole('link', { name: en.nav.attributes }));

    const rows = await screen.findByRole('list', { name: m.attributes.listLabel });
    const department = within(rows).getByRole('heading', { name: 'Department' }).closest('li') as HTMLElement;
    expect(within(department).getByText('department')).toBeTruthy();
    expect(within(department).getByText(m.attributeTypes.enum)).toBeTruthy();
    expect(within(department).getByText('1,204 users hold a value')).toBeTruthy();
    const number = within(rows).getByRole('heading', { name: 'Employee number' }).closest('li') as HTMLElement;
    expect(within(number).getByText(m.attributes.unique)).toBeTruthy();
    expect(within(number).getByText(m.sensitivities.personal.label)).toBeTruthy();
    expect(within(number).getByText(m.attributes.holders(0))).toBeTruthy();
  });

  it('links each attribute to the audit log of its changes for holders of audit.view only', async () => {
    mockTrpc({
      'auth.me': ok(sessionOf(['attributes.manage', 'audit.view'])),
      'scimMapping.show': 'pending',
      'attributes.list': list([attribute()]),
    });
    renderApp('/settings/attributes');
    const history = await screen.findByRole('link', { name: `${m.attributes.history} Department` });
    expect(history.getAttribute('href')).toBe('/audit?filters[attribute]=department');
  });

  it('offers no history link without audit.view', async () => {
    mockTrpc({
      'auth.me': ok(sessionOf(['attributes.manage'])),
      'scimMapping.show': 'pending',
      'attributes.list': list([attribute()]),
    });
    renderApp('/settings/attributes');
    await screen.findByRole('heading', { name: 'Department' });
    expect(screen.queryByRole('link', { name: `${m.attributes.history} Department` })).toBeNull();
  });

  it('hides the navigation entry without attributes.manage', async () => {
    mockTrpc({ 'auth.me': ok(sessionOf(['users.view', 'roles.view'])), 'users.list': 'pending' });
    renderApp('/account');
    expect(await screen.findByRole('link', { name: en.nav.roles })).toBeTruthy();
    expect(screen.queryByRole('link', { name: en.nav.attributes })).toBeNull();
  });

  it('refuses a bad definition before sending, in the contract’s words', async () => {
    const api = mockTrpc({ 'auth.me': ok(sessionOf(['attributes.manage'])) });
    renderApp('/settings/attributes/new');

    await screen.findByLabelText(f.label);
    type(f.label, 'Department');
    expect((screen.getByLabelText(f.key) as HTMLInputElement).value).toBe('department');
    type(f.type, 'enum');
    fireEvent.click(screen.getByRole('button', { name: f.create }));

    expect(await screen.findByText('List the values people can pick.')).toBeTruthy();
    expect(screen.getByLabelText(f.values).getAttribute('aria-invalid')).toBe('true');
    expect(api.callsTo('attributes.create')).toEqual([]);
  });

  it('declares an attribute, showing the server’s refusal on its field first', async () => {
    const taken = 'There is already an attribute with the key "cost_centre".';
    let tries = 0;
    const api = mockTrpc({
      'auth.me': ok(sessionOf(['attributes.manage'])),
      'attributes.create': () =>
        ++tries === 1
          ? fail({ message: taken, code: 'VALIDATION_FAILED', httpStatus: 422, errors: { key: [taken] } })
          : ok({ item: attribute({ key: 'cost_centre_2', label: 'Cost centre', type: 'string', values: null }) }),
      'scimMapping.show': 'pending',
      'attributes.list': list([]),
    });
    const { router } = renderApp('/settings/attributes/new');

    await screen.findByLabelText(f.label);
    type(f.label, 'Cost centre');
    type(f.minLength, '2');
    type(f.pattern, 'CC-[0-9]+');
    fireEvent.click(screen.getByRole('radio', { name: m.sensitivities.sensitive.label }));
    fireEvent.click(screen.getByRole('button', { name: f.create }));

    const key = screen.getByLabelText(f.key);
    await waitFor(() => expect(key.getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getByText(taken)).toBeTruthy();
    type(f.key, 'cost_centre_2');
    fireEvent.click(screen.getByRole('button', { name: f.create }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/settings/attributes'));
    expect(api.callsTo('attributes.create')[1]).toEqual({
      key: 'cost_centre_2',
      label: 'Cost centre',
      type: 'string',
      required: false,
      unique: false,
      validators: { min_length: 2, pattern: 'CC-[0-9]+' },
      sensitivity: 'sensitive',
    });
  });

  it('asks the server first when a change could break values, and clears the failing ones only when confirmed', async () => {
    const api = mockTrpc({
      'auth.me': ok(sessionOf(['attributes.manage'])),
      'attributes.show': ok({ item: attribute() }),
      'attributes.update': (input) =>
        (input as { dryRun: boolean }).dryRun
          ? ok({ impact: { holders: 1204, failing: 37 } })
          : ok({ item: attribute({ values: ['Sales', 'Support'] }) }),
      'scimMapping.show': 'pending',
      'attributes.list': list([attribute()]),
    });
    const { router } = renderApp('/settings/attributes/department');

    await waitFor(() => expect((screen.getByLabelText(f.values) as HTMLTextAreaElement).value).toContain('Legal'));
    type(f.values, 'Sales\nSupport');
    fireEvent.click(screen.getByRole('button', { name: f.save }));

    const dialog = await screen.findByRole('dialog', { name: m.attributeImpact.changeTitle });
    expect(within(dialog).getByText('1,204 users hold a value; 37 would fail.')).toBeTruthy();
    expect(api.callsTo('attributes.update')).toEqual([
      expect.objectContaining({ key: 'department', values: ['Sales', 'Support'], dryRun: true }),
    ]);
    fireEvent.click(within(dialog).getByRole('button', { name: m.attributeImpact.clearAndSave(37) }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/settings/attributes'));
    expect(api.callsTo('attributes.update')[1]).toEqual(
      expect.objectContaining({ key: 'department', dryRun: false, onConflict: 'clear' }),
    );
  });

  it('shows a 409 ATTRIBUTE_CONFLICT’s impact the same way', async () => {
    const api = mockTrpc({
      'auth.me': ok(sessionOf(['attributes.manage'])),
      'attributes.show': ok({ item: attribute() }),
      'attributes.update': (input) => {
        const { dryRun, onConflict } = input as { dryRun: boolean; onConflict?: string };
        if (dryRun) return ok({ impact: { holders: 1204, failing: 0 } });
        return onConflict === 'clear'
          ? ok({ item: attribute() })
          : fail({
              message: '3 of the 1,206 values users hold would break.',
              code: 'ATTRIBUTE_CONFLICT',
              httpStatus: 409,
              impact: { holders: 1206, failing: 3 },
            });
      },
      'scimMapping.show': 'pending',
      'attributes.list': list([attribute()]),
    });
    renderApp('/settings/attributes/department');

    await waitFor(() => expect((screen.getByLabelText(f.values) as HTMLTextAreaElement).value).toContain('Legal'));
    type(f.values, 'Sales\nSupport');
    fireEvent.click(screen.getByRole('button', { name: f.save }));

    const dialog = await screen.findByRole('dialog', { name: m.attributeImpact.changeTitle });
    expect(within(dialog).getByText('1,206 users hold a value; 3 would fail.')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: m.attributeImpact.clearAndSave(3) }));
    await waitFor(() => expect(api.callsTo('attributes.update')).toHaveLength(3));
  });

  it('saves a new label at once: it cannot break a value', async () => {
    const api = mockTrpc({
      'auth.me': ok(sessionOf(['attributes.manage'])),
      'attributes.show': ok({ item: attribute() }),
      'attributes.update': ok({ item: attribute({ label: 'Team' }) }),
      'scimMapping.show': 'pending',
      'attributes.list': list([attribute()]),
    });
    const { router } = renderApp('/settings/attributes/department');

    await waitFor(() => expect((screen.getByLabelText(f.label) as HTMLInputElement).value).toBe('Department'));
    expect((screen.getByLabelText(f.key) as HTMLInputElement).readOnly).toBe(true);
    type(f.label, 'Team');
    fireEvent.click(screen.getByRole('button', { name: f.save }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/settings/attributes'));
    expect(api.callsTo('attributes.update')).toEqual([
      {
        key: 'department',
        label: 'Team',
        type: 'enum',
        values: ['Sales', 'Support', 'Legal'],
        required: false,
        unique: false,
        validators: {},
        sensitivity: 'none',
        dryRun: false,
        onConflict: 'refuse',
      },
    ]);
  });

  it('deletes an attribute after showing how many values go with it', async () => {
    const api = mockTrpc({
      'auth.me': ok(sessionOf(['attributes.manage'])),
      'scimMapping.show': 'pending',
      'attributes.list': list([attribute()]),
      'attributes.delete': ok({ impact: { holders: 1204, failing: 1204 } }),
    });
    renderApp('/settings/attributes');

    fireEvent.click(await screen.findByRole('button', { name: `${m.attributes.delete} Department` }));
    const dialog = await screen.findByRole('dialog', { name: m.attributeImpact.deleteTitle('Department') });
    expect(await within(dialog).findByText(m.attributeImpact.deleteSome(1204))).toBeTruthy();
    expect(api.callsTo('attributes.delete')).toEqual([{ key: 'department', dryRun: true }]);
    fireEvent.click(within(dialog).getByRole('button', { name: m.attributeImpact.deleteConfirm }));

    await waitFor(() => expect(api.callsTo('attributes.delete')).toHaveLength(2));
    expect(api.callsTo('attributes.delete')[1]).toEqual({ key: 'department', dryRun: false });
    expect(await screen.findByText(m.attributes.deleted('Department', 1204))).toBeTruthy();
  });
});
