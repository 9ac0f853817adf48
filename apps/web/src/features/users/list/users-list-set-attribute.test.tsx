import type { UsersListResult } from '@app/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { en } from '../../../i18n/en';
import { ATTRIBUTE_FIELDS, attributeField } from '../../../test/attribute-fixtures';
import { renderApp } from '../../../test/render-app';
import { fail, ok } from '../../../test/trpc-mock';
import { dryRunReport, listOf, mockUsersApi, userRow } from './users-list.test-support';

const t = en.usersList;
const b = t.attributes.bulk;

const EMPLOYEE_NO = attributeField({ key: 'employee_no', label: 'Employee number', type: 'string', unique: true });
const answer: UsersListResult = {
  ...listOf([userRow(3), userRow(2), userRow(1)]),
  attributes: [...ATTRIBUTE_FIELDS, EMPLOYEE_NO],
};

async function pickUsers(...names: string[]) {
  const table = await screen.findByRole('table', { name: t.table.label });
  await within(table).findByRole('link', { name: 'User 1' });
  for (const name of names) fireEvent.click(within(table).getByRole('checkbox', { name: t.table.selectRow(name) }));
  const bar = await screen.findByRole('region', { name: t.selection.label });
  fireEvent.click(within(bar).getByRole('button', { name: b.action }));
}

describe('users list: bulk "Set attribute"', { timeout: 20_000 }, () => {
  it('picks an attribute and a value, judges it, shows the dry run, then sets it', async () => {
    const api = mockUsersApi('all', 3, {
      'users.list': () => ok(answer),
      'users.bulk': (input) =>
        ok(
          dryRunReport({
            operation: 'setAttribute',
            dryRun: (input as { dryRun: boolean }).dryRun,
            requested: 2,
            affected: [3, 2],
          }),
        ),
    });
    renderApp('/users');
    await pickUsers('User 3', 'User 2');

    const picker = await screen.findByRole('dialog', { name: b.pickTitle(2) });
    const next = within(picker).getByRole('button', { name: b.next });
    expect(next.hasAttribute('disabled')).toBe(true);
    fireEvent.change(within(picker).getByLabelText(b.attribute), { target: { value: 'level' } });
    // The definition's own rule (1–9), judged by the server's function before anything is sent.
    fireEvent.change(within(picker).getByLabelText(b.value), { target: { value: '12' } });
    fireEvent.click(next);
    expect(await within(picker).findByText(/Level must be 9 or less/)).toBeTruthy();
    expect(api.callsTo('users.bulk')).toEqual([]);

    fireEvent.change(within(picker).getByLabelText(b.value), { target: { value: '4' } });
    fireEvent.click(next);

    const dialog = await screen.findByRole('dialog', { name: b.title(2, 'Level') });
    expect(await within(dialog).findByText(b.affected(2, 'Level'))).toBeTruthy();
    expect(api.callsTo('users.bulk')).toEqual([
      { operation: 'setAttribute', attribute: 'level', value: 4, ids: [2, 3], dryRun: true },
    ]);
    fireEvent.click(within(dialog).getByRole('button', { name: b.confirm(2, 'Level') }));
    expect(await screen.findByText(b.done(2, 'Level'))).toBeTruthy();
    expect(api.callsTo('users.bulk')[1]).toMatchObject({ attribute: 'level', value: 4, dryRun: false });
  });

  it('clears the value when asked', async () => {
    const api = mockUsersApi('all', 3, {
      'users.list': () => ok(answer),
      'users.bulk': ok(dryRunReport({ operation: 'setAttribute', requested: 1, affected: [1] })),
    });
    renderApp('/users');
    await pickUsers('User 1');
    const picker = await screen.findByRole('dialog', { name: b.pickTitle(1) });
    fireEvent.change(within(picker).getByLabelText(b.attribute), { target: { value: 'department' } });
    expect(within(picker).getByRole('option', { name: 'Sales' })).toBeTruthy();
    fireEvent.click(within(picker).getByRole('switch', { name: b.clear }));
    expect(within(picker).queryByLabelText(b.value)).toBeNull();
    fireEvent.click(within(picker).getByRole('button', { name: b.next }));
    await waitFor(() =>
      expect(api.callsTo('users.bulk')).toEqual([
        { operation: 'setAttribute', attribute: 'department', value: null, ids: [1], dryRun: true },
      ]),
    );
    expect(await screen.findByText(b.description('Department', b.cleared))).toBeTruthy();
  });

  it('shows the server’s refusal of one unique value for several users', async () => {
    const message =
      'Employee number is unique: one value can be given to one user only, and this request names several.';
    mockUsersApi('all', 3, {
      'users.list': () => ok(answer),
      'users.bulk': fail({ code: 'VALIDATION_FAILED', httpStatus: 422, message, errors: { value: [message] } }),
    });
    renderApp('/users');
    await pickUsers('User 3', 'User 2');
    const picker = await screen.findByRole('dialog', { name: b.pickTitle(2) });
    fireEvent.change(within(picker).getByLabelText(b.attribute), { target: { value: 'employee_no' } });
    expect(within(picker).getByText(b.uniqueHint)).toBeTruthy();
    fireEvent.change(within(picker).getByLabelText(b.value), { target: { value: 'E-100' } });
    fireEvent.click(within(picker).getByRole('button', { name: b.next }));
    expect(await screen.findByText(message)).toBeTruthy();
  });

  it('is not offered without users.update', async () => {
    mockUsersApi(['users.view', 'users.delete'], 3, { 'users.list': () => ok(answer) });
    renderApp('/users');
    const table = await screen.findByRole('table', { name: t.table.label });
    await within(table).findByRole('link', { name: 'User 1' });
    fireEvent.click(within(table).getByRole('checkbox', { name: t.table.selectRow('User 1') }));
    const bar = await screen.findByRole('region', { name: t.selection.label });
    expect(within(bar).queryByRole('button', { name: b.action })).toBeNull();
  });
});
