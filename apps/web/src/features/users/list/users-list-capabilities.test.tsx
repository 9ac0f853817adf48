import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { en } from '../../../i18n/en';
import { renderApp } from '../../../test/render-app';
import { mockUsersApi, openMenu } from './users-list.test-support';

const t = en.usersList;

async function findRows() {
  const table = await screen.findByRole('table', { name: t.table.label });
  await within(table).findAllByRole('link');
  return table;
}

function selectFirstRow(table: HTMLElement) {
  fireEvent.click(within(table).getByRole('checkbox', { name: t.table.selectRow('User 42') }));
}

// Whole pages with Radix menus and dialogs: generous under a loaded CI machine.
describe('users list capabilities', { timeout: 20_000 }, () => {
  it('gives a viewer no selection, no export, no trash and no state-changing row action', async () => {
    mockUsersApi(['users.view', 'roles.view']);
    renderApp('/users');
    const table = await findRows();

    expect(within(table).queryAllByRole('checkbox')).toHaveLength(0);
    expect(screen.queryByRole('button', { name: t.export.button })).toBeNull();
    expect(screen.queryByRole('button', { name: new RegExp(t.stats.trashed) })).toBeNull();
    expect(screen.queryByRole('link', { name: t.newUser })).toBeNull();

    openMenu(t.rowActions.open('User 42'));
    const menu = await screen.findByRole('menu');
    expect(within(menu).getByRole('menuitem', { name: t.rowActions.view })).toBeTruthy();
    expect(within(menu).queryAllByRole('menuitem')).toHaveLength(1);
  });

  it('offers no bulk delete without users.delete', async () => {
    mockUsersApi(['users.view', 'users.update', 'users.setActive', 'users.export', 'roles.view']);
    renderApp('/users');
    selectFirstRow(await findRows());

    const bar = await screen.findByRole('region', { name: t.selection.label });
    expect(within(bar).getByRole('button', { name: t.bulk.deactivate })).toBeTruthy();
    expect(within(bar).getByRole('button', { name: t.bulk.activate })).toBeTruthy();
    expect(within(bar).queryByRole('button', { name: t.bulk.delete })).toBeNull();
  });

  it('offers bulk delete, the export menu and the trash view to an administrator', async () => {
    mockUsersApi('all');
    renderApp('/users');
    const table = await findRows();
    selectFirstRow(table);

    const bar = await screen.findByRole('region', { name: t.selection.label });
    expect(within(bar).getByRole('button', { name: t.bulk.delete })).toBeTruthy();
    expect(within(bar).queryByRole('button', { name: t.bulk.restore })).toBeNull();
    expect(screen.getByRole('button', { name: t.export.button })).toBeTruthy();
    expect(screen.getByRole('button', { name: new RegExp(t.stats.trashed) })).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: t.filters.button }));
    expect(await screen.findByRole('combobox', { name: t.filters.trash })).toBeTruthy();
  });

  it('has no trash filter without users.restore or users.forceDelete', async () => {
    mockUsersApi(['users.view', 'users.delete', 'users.export']);
    renderApp('/users');
    await findRows();

    fireEvent.click(screen.getByRole('button', { name: t.filters.button }));
    expect(await screen.findByRole('combobox', { name: t.filters.status })).toBeTruthy();
    expect(screen.queryByRole('combobox', { name: t.filters.trash })).toBeNull();
  });

  it('offers restore and permanent delete, not deactivation, in the trash view', async () => {
    mockUsersApi('all');
    renderApp('/users?filters[trashed]=only');
    selectFirstRow(await findRows());

    const bar = await screen.findByRole('region', { name: t.selection.label });
    expect(within(bar).getByRole('button', { name: t.bulk.restore })).toBeTruthy();
    expect(within(bar).getByRole('button', { name: t.bulk.forceDelete })).toBeTruthy();
    expect(within(bar).queryByRole('button', { name: t.bulk.deactivate })).toBeNull();
  });
});
