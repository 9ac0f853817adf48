import type { BulkRequest, UserNewResult } from '@app/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { en } from '../../../i18n/en';
import { renderApp } from '../../../test/render-app';
import { fail, ok } from '../../../test/trpc-mock';
import { roleMembersHref } from '../../../lib/resource-list/list-links';
import { dryRunReport, listOf, mockUsersApi, openMenu, userRow } from './users-list.test-support';

const t = en.usersList;

async function findTable() {
  const table = await screen.findByRole('table', { name: t.table.label });
  await within(table).findAllByRole('link', { name: /User \d+/ });
  return table;
}

const rowOf = (table: HTMLElement, name: string) =>
  within(table).getByRole('link', { name }).closest('tr') as HTMLElement;

/** GET /users/new as an administrator-but-not-quite sees it: admin carries permissions it lacks. */
const NEW_FORM: UserNewResult = {
  options: {
    roles: [
      {
        id: 1,
        name: 'admin',
        assignable: false,
        missing: ['users.forceDelete'],
        reason:
          'You cannot grant or remove the role admin: it carries permissions you do not hold (users.forceDelete).',
      },
      { id: 2, name: 'manager', assignable: true },
      { id: 3, name: 'viewer', assignable: true },
    ],
    permissions: [],
    attributes: [],
  },
  can: { setActive: true },
};

describe('users list: the roles column', { timeout: 20_000 }, () => {
  it('shows each user’s roles as badges linking to that role’s members, and says when there are none', async () => {
    mockUsersApi('all', 0, {
      'users.list': ok(
        listOf([
          userRow(7, { roles: ['manager', 'viewer'], roles_count: 2 }),
          userRow(8, { roles: [], roles_count: 0 }),
        ]),
      ),
    });
    renderApp('/users');
    const table = await findTable();
    expect(within(table).getByRole('columnheader', { name: t.columns.roles })).toBeTruthy();

    const both = rowOf(table, 'User 7');
    const manager = within(both).getByRole('link', { name: 'manager' });
    expect(manager.getAttribute('href')).toBe(roleMembersHref(2));
    expect(within(both).getByRole('link', { name: 'viewer' }).getAttribute('href')).toBe(roleMembersHref(3));
    expect(within(rowOf(table, 'User 8')).getByText(t.table.noRoles)).toBeTruthy();
  });

  it('can be hidden from the columns menu like the other columns', async () => {
    mockUsersApi('all', 12);
    renderApp('/users');
    const table = await findTable();
    expect(within(table).getAllByRole('link', { name: 'viewer' }).length).toBeGreaterThan(0);

    openMenu(t.view.columns);
    fireEvent.click(await screen.findByRole('menuitemcheckbox', { name: t.columns.roles }));

    await waitFor(() => expect(within(table).queryByRole('columnheader', { name: t.columns.roles })).toBeNull());
    expect(within(table).queryByRole('link', { name: 'viewer' })).toBeNull();
  });
});

describe('users list: bulk add and remove a role', { timeout: 20_000 }, () => {
  it('picks a role the caller may give, shows the check, then gives it to the selected users', async () => {
    let answerCheck = () => {};
    const checked = new Promise<void>((resolve) => {
      answerCheck = resolve;
    });
    const api = mockUsersApi('all', 42, {
      'users.new': ok(NEW_FORM),
      'users.bulk': async (input) => {
        if ((input as { dryRun: boolean }).dryRun) await checked;
        return ok(
          dryRunReport({
            operation: 'addRole',
            dryRun: (input as { dryRun: boolean }).dryRun,
            requested: 2,
            affected: [42],
            skipped: [{ id: 41, code: 'ROLE_ALREADY_HELD', message: 'User 41 already has the role manager.' }],
          }),
        );
      },
    });
    renderApp('/users');
    const table = await findTable();
    fireEvent.click(within(table).getByRole('checkbox', { name: t.table.selectRow('User 42') }));
    fireEvent.click(within(table).getByRole('checkbox', { name: t.table.selectRow('User 41') }));
    const bar = await screen.findByRole('region', { name: t.selection.label });
    fireEvent.click(within(bar).getByRole('button', { name: t.bulk.addRole }));

    const picker = await screen.findByRole('dialog', { name: t.bulk.role.pickTitle.addRole(2) });
    const select = within(picker).getByLabelText(t.bulk.role.label) as HTMLSelectElement;
    await within(picker).findByRole('option', { name: 'manager' });
    // The server's verdict: admin is shown, not offered, and the reason is said.
    expect((within(picker).getByRole('option', { name: 'admin' }) as HTMLOptionElement).disabled).toBe(true);
    expect(within(picker).getByText(t.bulk.role.unavailable('admin'))).toBeTruthy();
    const next = within(picker).getByRole('button', { name: t.bulk.role.next });
    expect(next.hasAttribute('disabled')).toBe(true);
    fireEvent.change(select, { target: { value: '2' } });
    fireEvent.click(next);

    const dialog = await screen.findByRole('dialog', { name: t.bulk.role.title.addRole(2, 'manager') });
    // While checking, the button says so rather than a half sentence ("Give manager to").
    const checking = within(dialog).getByRole('button', { name: t.bulk.checkingButton });
    expect(checking.hasAttribute('disabled')).toBe(true);
    expect(within(dialog).queryByRole('button', { name: t.bulk.role.verb.addRole('manager') })).toBeNull();
    answerCheck();
    expect(await within(dialog).findByText(t.bulk.role.affected.addRole(1, 'manager'))).toBeTruthy();
    expect(within(dialog).getByText('User 41 already has the role manager.')).toBeTruthy();
    expect(api.callsTo('users.bulk')).toEqual([{ operation: 'addRole', role_id: 2, ids: [41, 42], dryRun: true }]);

    fireEvent.click(within(dialog).getByRole('button', { name: t.bulk.role.confirm.addRole(1, 'manager') }));
    expect(await screen.findByText(t.bulk.role.done.addRole(1, 'manager'))).toBeTruthy();
    expect(api.callsTo('users.bulk')[1]).toEqual({ operation: 'addRole', role_id: 2, ids: [41, 42], dryRun: false });
  });

  it('says there is nothing to change when every selected user already holds the role', async () => {
    const api = mockUsersApi('all', 42, {
      'users.new': ok(NEW_FORM),
      'users.bulk': ok(
        dryRunReport({
          operation: 'addRole',
          dryRun: true,
          requested: 1,
          affected: [],
          skipped: [{ id: 42, code: 'ROLE_ALREADY_HELD', message: 'User 42 already has the role manager.' }],
        }),
      ),
    });
    renderApp('/users');
    const table = await findTable();
    fireEvent.click(within(table).getByRole('checkbox', { name: t.table.selectRow('User 42') }));
    const bar = await screen.findByRole('region', { name: t.selection.label });
    fireEvent.click(within(bar).getByRole('button', { name: t.bulk.addRole }));
    const picker = await screen.findByRole('dialog', { name: t.bulk.role.pickTitle.addRole(1) });
    await within(picker).findByRole('option', { name: 'manager' });
    fireEvent.change(within(picker).getByLabelText(t.bulk.role.label), { target: { value: '2' } });
    fireEvent.click(within(picker).getByRole('button', { name: t.bulk.role.next }));

    const dialog = await screen.findByRole('dialog', { name: t.bulk.role.title.addRole(1, 'manager') });
    const nothing = await within(dialog).findByRole('button', { name: t.bulk.nothingButton });
    expect(nothing.hasAttribute('disabled')).toBe(true);
    expect(within(dialog).queryByRole('button', { name: t.bulk.role.confirm.addRole(0, 'manager') })).toBeNull();
    expect(api.callsTo('users.bulk')).toHaveLength(1);
  });

  it('takes a role from every matching user as a job, the query itself sent with the role', async () => {
    const api = mockUsersApi('all', 42, {
      'users.new': ok(NEW_FORM),
      'users.bulk': 'pending',
    });
    renderApp('/users?filters[role_id][]=3');
    const table = await findTable();
    fireEvent.click(within(table).getByRole('checkbox', { name: t.table.selectPage }));
    const bar = await screen.findByRole('region', { name: t.selection.label });
    fireEvent.click(within(bar).getByRole('button', { name: t.selection.selectAllMatching(42) }));
    await within(bar).findByText(t.selection.allMatching(42));
    fireEvent.click(within(bar).getByRole('button', { name: t.bulk.removeRole }));

    const picker = await screen.findByRole('dialog', { name: t.bulk.role.pickTitle.removeRole(42) });
    await within(picker).findByRole('option', { name: 'viewer' });
    fireEvent.change(within(picker).getByLabelText(t.bulk.role.label), { target: { value: '3' } });
    fireEvent.click(within(picker).getByRole('button', { name: t.bulk.role.next }));

    const dialog = await screen.findByRole('dialog', {
      name: t.bulk.titleAll(t.bulk.role.verb.removeRole('viewer'), 42, true),
    });
    expect(within(dialog).getByRole('button', { name: t.bulk.checkingButton }).hasAttribute('disabled')).toBe(true);
    await waitFor(() => expect(api.callsTo('users.bulk')).toHaveLength(1));
    const [sent] = api.callsTo('users.bulk') as BulkRequest[];
    expect(sent).toEqual({
      operation: 'removeRole',
      role_id: 3,
      selection: { query: { filters: { role_id: [3] } }, except: [] },
      dryRun: true,
    });
  });

  it('names the role and the count on the confirm button when the check fails', async () => {
    mockUsersApi('all', 42, {
      'users.new': ok(NEW_FORM),
      'users.bulk': fail({ message: 'The server is busy.', code: 'INTERNAL_SERVER_ERROR', httpStatus: 500 }),
    });
    renderApp('/users');
    const table = await findTable();
    fireEvent.click(within(table).getByRole('checkbox', { name: t.table.selectRow('User 42') }));
    fireEvent.click(within(table).getByRole('checkbox', { name: t.table.selectRow('User 41') }));
    const bar = await screen.findByRole('region', { name: t.selection.label });
    fireEvent.click(within(bar).getByRole('button', { name: t.bulk.addRole }));
    const picker = await screen.findByRole('dialog', { name: t.bulk.role.pickTitle.addRole(2) });
    await within(picker).findByRole('option', { name: 'manager' });
    fireEvent.change(within(picker).getByLabelText(t.bulk.role.label), { target: { value: '2' } });
    fireEvent.click(within(picker).getByRole('button', { name: t.bulk.role.next }));

    const dialog = await screen.findByRole('dialog', { name: t.bulk.role.title.addRole(2, 'manager') });
    expect(await within(dialog).findByText(t.bulk.checkFailed)).toBeTruthy();
    const confirm = within(dialog).getByRole('button', { name: t.bulk.role.confirm.addRole(2, 'manager') });
    expect(confirm.hasAttribute('disabled')).toBe(true);
  });

  it('offers no role action to a caller without users.update', async () => {
    mockUsersApi(['users.view', 'users.delete'], 12);
    renderApp('/users');
    const table = await findTable();
    fireEvent.click(within(table).getByRole('checkbox', { name: t.table.selectRow('User 12') }));
    const bar = await screen.findByRole('region', { name: t.selection.label });
    expect(within(bar).getByRole('button', { name: t.bulk.delete })).toBeTruthy();
    expect(within(bar).queryByRole('button', { name: t.bulk.addRole })).toBeNull();
    expect(within(bar).queryByRole('button', { name: t.bulk.removeRole })).toBeNull();
  });
});
