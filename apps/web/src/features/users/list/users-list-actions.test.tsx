import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { en } from '../../../i18n/en';
import { fail, ok } from '../../../test/trpc-mock';
import { renderApp } from '../../../test/render-app';
import { HIDDEN_COLUMNS_STORAGE_KEY } from '../../../lib/users-query/users-list-state';
import { dryRunReport, listOf, mockUsersApi, openMenu, userRow } from './users-list.test-support';

const t = en.usersList;

async function findRows() {
  const table = await screen.findByRole('table', { name: t.table.label });
  await within(table).findAllByRole('link');
  return table;
}

const selectRow = (table: HTMLElement, name: string) =>
  fireEvent.click(within(table).getByRole('checkbox', { name: t.table.selectRow(name) }));

// Whole pages with Radix menus and dialogs: generous under a loaded CI machine.
describe('users list selection and actions', { timeout: 20_000 }, () => {
  it('selects every matching user as the query itself, and leaves out the rows then unticked', async () => {
    mockUsersApi('all', 42);
    renderApp('/users?filters[is_active]=active');
    const table = await findRows();

    fireEvent.click(within(table).getByRole('checkbox', { name: t.table.selectPage }));
    const bar = await screen.findByRole('region', { name: t.selection.label });
    expect(within(bar).getByText(t.selection.page(10), { exact: false })).toBeTruthy();

    fireEvent.click(within(bar).getByRole('button', { name: t.selection.selectAllMatching(42) }));

    expect(await within(bar).findByText(t.selection.allMatching(42))).toBeTruthy();
    // Every row shown stays ticked; unticking one leaves it out of "all matching".
    selectRow(table, 'User 41');
    expect(await within(bar).findByText(t.selection.except(1))).toBeTruthy();
    expect(within(bar).getByText(t.selection.allMatching(42))).toBeTruthy();
    const tick = (name: string) =>
      within(table)
        .getByRole('checkbox', { name: t.table.selectRow(name) })
        .getAttribute('aria-checked');
    expect(tick('User 42')).toBe('true');
    expect(tick('User 41')).toBe('false');
  });

  it('shows the dry-run report before changing anything, then runs it for real on confirm', async () => {
    const api = mockUsersApi('all', 42, {
      'users.bulk': (input) =>
        ok(
          dryRunReport({
            dryRun: (input as { dryRun: boolean }).dryRun,
            requested: 2,
            affected: [42],
            skipped: [{ id: 41, code: 'LAST_ADMIN', message: 'This would leave no active administrator.' }],
          }),
        ),
    });
    renderApp('/users');
    const table = await findRows();
    selectRow(table, 'User 42');
    selectRow(table, 'User 41');

    fireEvent.click(
      within(await screen.findByRole('region', { name: t.selection.label })).getByRole('button', {
        name: t.bulk.deactivate,
      }),
    );

    const dialog = await screen.findByRole('dialog', { name: t.bulk.title.deactivate(2) });
    expect(await within(dialog).findByText(t.bulk.affected.deactivate(1))).toBeTruthy();
    expect(within(dialog).getByText(`${t.bulk.skipped(1)}:`, { exact: false })).toBeTruthy();
    expect(within(dialog).getByText('User 41')).toBeTruthy();
    expect(within(dialog).getByText('This would leave no active administrator.')).toBeTruthy();
    expect(api.callsTo('users.bulk')).toEqual([{ operation: 'setActive', active: false, ids: [41, 42], dryRun: true }]);

    fireEvent.click(within(dialog).getByRole('button', { name: t.bulk.confirm.deactivate(1) }));

    expect(await screen.findByText(t.bulk.done.deactivate(1))).toBeTruthy();
    expect(api.callsTo('users.bulk')[1]).toEqual({
      operation: 'setActive',
      active: false,
      ids: [41, 42],
      dryRun: false,
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.queryByRole('region', { name: t.selection.label })).toBeNull();
  });

  it('exports what the table shows: filters, sort, visible columns in order and the selection', async () => {
    window.localStorage.setItem(HIDDEN_COLUMNS_STORAGE_KEY, JSON.stringify(['email', 'id']));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    mockUsersApi('all');
    renderApp('/users?sort=name&dir=desc&filters[role_id][]=2');
    const table = await findRows();
    selectRow(table, 'User 40');

    openMenu(t.export.button);
    fireEvent.click(await screen.findByRole('menuitem', { name: t.export.csv }));

    expect(click).toHaveBeenCalledTimes(1);
    const url = new URL((click.mock.contexts[0] as HTMLAnchorElement).href);
    expect(url.pathname).toBe('/api/users/export');
    expect(decodeURIComponent(url.search)).toBe(
      '?sort=name&dir=desc&filters[role_id][]=2&format=csv' +
        '&columns[]=name&columns[]=roles_count&columns[]=roles&columns[]=is_active&columns[]=created_at&ids[]=40',
    );
  });

  it('confirms a row action and shows the server’s refusal as a notification', async () => {
    const api = mockUsersApi('all', 42, {
      'users.setActive': fail({
        code: 'LAST_ADMIN',
        httpStatus: 422,
        message: 'This would leave no active administrator.',
      }),
    });
    renderApp('/users');
    await findRows();

    openMenu(t.rowActions.open('User 42'));
    fireEvent.click(await screen.findByRole('menuitem', { name: t.rowActions.deactivate }));
    const dialog = await screen.findByRole('dialog', { name: t.rowActions.title.deactivate('User 42') });
    fireEvent.click(within(dialog).getByRole('button', { name: t.rowActions.deactivate }));

    expect(await screen.findByText('This would leave no active administrator.')).toBeTruthy();
    expect(api.callsTo('users.setActive')).toEqual([{ id: 42, active: false }]);
  });

  it('offers Delete on an active user as unavailable, with the server’s reason, and does nothing on it', async () => {
    const api = mockUsersApi('all', 42);
    renderApp('/users');
    await findRows();

    openMenu(t.rowActions.open('User 42'));
    const item = await screen.findByRole('menuitem', { name: t.rowActions.delete });
    expect(item.getAttribute('aria-disabled')).toBe('true');
    const reason = 'User 42 is active: deactivate the account before deleting it.';
    expect(document.getElementById(item.getAttribute('aria-describedby') ?? '')?.textContent).toBe(reason);
    fireEvent.click(item);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(api.callsTo('users.delete')).toEqual([]);
  });

  it('deletes an active user when the server allows it (deletion of active users switched on)', async () => {
    const allowed = { allowed: true };
    const row = userRow(42);
    const api = mockUsersApi('all', 42, {
      'users.list': ok(listOf([{ ...row, actions: { ...row.actions, delete: allowed } }])),
      'users.delete': ok(null),
    });
    renderApp('/users');
    await findRows();

    openMenu(t.rowActions.open('User 42'));
    const item = await screen.findByRole('menuitem', { name: t.rowActions.delete });
    expect(item.getAttribute('aria-disabled')).toBeNull();
    fireEvent.click(item);
    const dialog = await screen.findByRole('dialog', { name: t.rowActions.title.delete('User 42') });
    fireEvent.click(within(dialog).getByRole('button', { name: t.rowActions.delete }));
    await waitFor(() => expect(api.callsTo('users.delete')).toEqual([{ id: 42 }]));
  });

  it('restores and purges a trashed row through the single-record routes', async () => {
    const gone = userRow(7, { deleted_at: '2024-06-01T00:00:00.000Z' });
    const api = mockUsersApi('all', 42, {
      'users.list': ok(listOf([gone])),
      'users.restore': ok({ item: { ...gone, deleted_at: null, updated_at: gone.created_at } }),
      'users.forceDelete': ok(null),
    });
    renderApp('/users?filters[trashed]=only');
    await findRows();

    openMenu(t.rowActions.open('User 7'));
    fireEvent.click(await screen.findByRole('menuitem', { name: t.rowActions.restore }));
    let dialog = await screen.findByRole('dialog', { name: t.rowActions.title.restore('User 7') });
    fireEvent.click(within(dialog).getByRole('button', { name: t.rowActions.restore }));
    await waitFor(() => expect(api.callsTo('users.restore')).toEqual([{ id: 7 }]));

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    openMenu(t.rowActions.open('User 7'));
    fireEvent.click(await screen.findByRole('menuitem', { name: t.rowActions.forceDelete }));
    dialog = await screen.findByRole('dialog', { name: t.rowActions.title.forceDelete('User 7') });
    fireEvent.click(within(dialog).getByRole('button', { name: t.rowActions.forceDelete }));
    await waitFor(() => expect(api.callsTo('users.forceDelete')).toEqual([{ id: 7 }]));
    expect(api.callsTo('users.bulk')).toEqual([]);
  });
});
