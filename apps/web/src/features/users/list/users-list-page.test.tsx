import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { en } from '../../../i18n/en';
import { renderApp } from '../../../test/render-app';
import { DENSITY_STORAGE_KEY } from '../../../lib/users-query/users-list-state';
import type { UsersListResult } from '@app/contracts';
import { ok } from '../../../test/trpc-mock';
import { mockUsersApi, usersDirectory } from './users-list.test-support';

const t = en.usersList;

/** The table once the first page has arrived. */
async function findTable() {
  const table = await screen.findByRole('table', { name: t.table.label });
  await within(table).findAllByRole('link');
  return table;
}

// Whole pages with Radix menus and dialogs: generous under a loaded CI machine.
describe('users list', { timeout: 20_000 }, () => {
  it('shows the first page of users and where it is in the whole list', async () => {
    mockUsersApi('all', 42);
    renderApp('/users');

    const table = await findTable();
    expect(await within(table).findByRole('link', { name: 'User 42' })).toBeTruthy();
    expect(within(table).getAllByRole('row')).toHaveLength(11);
    expect(screen.getByText('Showing 1–10 of 42')).toBeTruthy();
    expect(screen.getByText('Page 1 of 5')).toBeTruthy();
    expect(within(table).getByRole('link', { name: 'User 42' }).getAttribute('href')).toBe('/users/42');
  });

  it('says "10,000+" when the server gives the total as a lower bound, and offers no last page', async () => {
    const directory = usersDirectory(42);
    mockUsersApi('all', 42, {
      'users.list': (input: unknown) => {
        const page = (directory(input) as { data: UsersListResult }).data;
        return ok({ ...page, meta: { ...page.meta, total: 10_000, totalExact: false, pageCount: 1_000 } });
      },
    });
    renderApp('/users');

    await findTable();
    expect(screen.getByText('Showing 1–10 of 10,000+')).toBeTruthy();
    expect(screen.getByText('Page 1 of 1,000+')).toBeTruthy();
    expect(screen.getByRole('button', { name: t.pagination.next })).toBeTruthy();
    expect(screen.queryByRole('button', { name: t.pagination.last })).toBeNull();
  });

  it('shows the summary counters and filters by status when one is clicked', async () => {
    const api = mockUsersApi('all', 42);
    const { router } = renderApp('/users');

    const inactive = await screen.findByRole('button', { name: /Inactive\s*8/ });
    fireEvent.click(inactive);

    await waitFor(() => expect(router.state.location.search).toBe('?filters[is_active]=inactive'));
    await waitFor(() =>
      expect(api.callsTo('users.list').at(-1)).toMatchObject({ filters: { is_active: 'inactive' }, page: 1 }),
    );
    expect((await screen.findByRole('button', { name: /Inactive\s*8/ })).getAttribute('aria-pressed')).toBe('true');
  });

  it('stores the density under users_table_density and restores it on the next visit', async () => {
    mockUsersApi('all');
    const first = renderApp('/users');
    await findTable();

    fireEvent.click(screen.getByRole('radio', { name: t.view.compact }));
    expect(window.localStorage.getItem(DENSITY_STORAGE_KEY)).toBe('compact');
    first.unmount();

    renderApp('/users');
    await findTable();
    expect((screen.getByRole('radio', { name: t.view.compact }) as HTMLInputElement).checked).toBe(true);
  });

  it('puts a sort in the URL when a sortable header is clicked, and offers no sort on roles', async () => {
    const api = mockUsersApi('all');
    const { router } = renderApp('/users');
    const table = await findTable();

    const nameHeader = within(table).getByRole('columnheader', { name: t.columns.name });
    expect(nameHeader.getAttribute('aria-sort')).toBe('none');
    fireEvent.click(within(nameHeader).getByRole('button', { name: t.columns.name }));

    await waitFor(() => expect(router.state.location.search).toBe('?sort=name&dir=asc'));
    await waitFor(() =>
      expect(within(table).getByRole('columnheader', { name: t.columns.name }).getAttribute('aria-sort')).toBe(
        'ascending',
      ),
    );
    expect(api.callsTo('users.list').at(-1)).toMatchObject({ sort: 'name', dir: 'asc' });

    fireEvent.click(within(nameHeader).getByRole('button', { name: t.columns.name }));
    await waitFor(() => expect(router.state.location.search).toBe('?sort=name&dir=desc'));

    const rolesHeader = within(table).getByRole('columnheader', { name: t.columns.roles_count });
    expect(rolesHeader.getAttribute('aria-sort')).toBeNull();
    expect(within(rolesHeader).queryByRole('button')).toBeNull();
  });

  it('renders the filters of a URL as chips and sends them with the request', async () => {
    const api = mockUsersApi('all');
    renderApp('/users?q=ann&page=2&filters[role_id][]=2&filters[role_id][]=3&filters[is_active]=active');

    const chips = await screen.findByRole('list', { name: t.filters.chipsLabel });
    expect(await within(chips).findByText('manager, viewer')).toBeTruthy();
    expect(within(chips).getByText(t.filters.statusActive)).toBeTruthy();
    expect(within(chips).getByText('ann')).toBeTruthy();
    expect((screen.getByRole('searchbox', { name: t.search.label }) as HTMLInputElement).value).toBe('ann');
    await waitFor(() =>
      expect(api.callsTo('users.list')[0]).toMatchObject({
        q: 'ann',
        page: 2,
        filters: { role_id: [2, 3], is_active: 'active' },
      }),
    );
  });

  it('removes one filter with its chip and all of them with Clear all', async () => {
    mockUsersApi('all');
    const { router } = renderApp('/users?filters[name]=ann&filters[is_active]=inactive');

    fireEvent.click(await screen.findByRole('button', { name: t.filters.removeChip('Name', 'ann') }));
    await waitFor(() => expect(router.state.location.search).toBe('?filters[is_active]=inactive'));

    fireEvent.click(screen.getByRole('button', { name: t.filters.clearAll }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(screen.queryByRole('list', { name: t.filters.chipsLabel })).toBeNull();
  });

  it('keeps the valid parts of a hand-edited URL instead of failing', async () => {
    const api = mockUsersApi('all');
    renderApp('/users?page=zero&sort=password&filters[name]=ann&filters[colour]=red');

    await findTable();
    await waitFor(() => expect(api.callsTo('users.list')[0]).toMatchObject({ page: 1, filters: { name: 'ann' } }));
    const sent = api.callsTo('users.list')[0] as Record<string, unknown>;
    expect(sent.sort).toBeUndefined();
  });

  it('searches 300 ms after typing stops and goes back to page 1', async () => {
    const api = mockUsersApi('all');
    const { router } = renderApp('/users?page=3');
    await findTable();

    fireEvent.change(screen.getByRole('searchbox', { name: t.search.label }), { target: { value: 'ada' } });
    expect(router.state.location.search).toBe('?page=3');
    await waitFor(() => expect(router.state.location.search).toBe('?q=ada'));
    await waitFor(() => expect(api.callsTo('users.list').at(-1)).toMatchObject({ q: 'ada', page: 1 }));
  });

  it('pages through the URL, and Back returns to the previous page', async () => {
    mockUsersApi('all', 42);
    const { router } = renderApp('/users');
    await findTable();

    fireEvent.click(screen.getByRole('button', { name: t.pagination.next }));
    await waitFor(() => expect(router.state.location.search).toBe('?page=2'));
    expect(await screen.findByText('Showing 11–20 of 42')).toBeTruthy();

    fireEvent.change(screen.getByRole('combobox', { name: t.pagination.perPage }), { target: { value: '25' } });
    await waitFor(() => expect(router.state.location.search).toBe('?perPage=25'));
    expect(await screen.findByText('Showing 1–25 of 42')).toBeTruthy();

    await act(() => router.navigate(-1));
    expect(router.state.location.search).toBe('?page=2');
    expect(await screen.findByText('Showing 11–20 of 42')).toBeTruthy();
  });

  it('offers to clear the filters when nothing matches', async () => {
    mockUsersApi('all', 0);
    renderApp('/users?filters[name]=zzz');

    expect(await screen.findByText(t.empty.noMatchTitle)).toBeTruthy();
    expect(screen.getByRole('button', { name: t.empty.clearFilters })).toBeTruthy();
  });
});
