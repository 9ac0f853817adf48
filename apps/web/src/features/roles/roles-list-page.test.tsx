import type { Permission, RoleListRow } from '@app/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { en } from '../../i18n/en';
import { roleEditorMessages } from '../../i18n/role-editor-messages';
import { renderApp } from '../../test/render-app';
import { mockTrpc, ok, sessionOf } from '../../test/trpc-mock';

const t = en.roles;
const allowed = { allowed: true };

const roleOf = (row: Partial<RoleListRow> & Pick<RoleListRow, 'id' | 'name'>): RoleListRow => ({
  description: null,
  guard_name: 'web',
  version: '1',
  require_two_factor: false,
  created_at: '2026-01-05T10:00:00.000Z',
  updated_at: '2026-01-05T10:00:00.000Z',
  permissions_count: 0,
  users_count: 0,
  actions: { update: allowed, delete: allowed },
  ...row,
});

const ROLES = [
  roleOf({ id: 1, name: 'admin', description: 'Everything', permissions_count: 16, users_count: 2 }),
  roleOf({ id: 2, name: 'manager', permissions_count: 9, users_count: 1_204 }),
  roleOf({ id: 3, name: 'viewer', permissions_count: 2, users_count: 0 }),
];

const pageOf = (rows: RoleListRow[]) => ({
  rows,
  meta: { page: 1, perPage: 25, total: rows.length, totalExact: true, pageCount: rows.length > 0 ? 1 : 0 },
  filters: {},
});

function mockRolesApi(granted: readonly Permission[] | 'all' = 'all', rows: RoleListRow[] = ROLES) {
  return mockTrpc({ 'auth.me': ok(sessionOf(granted)), 'roles.list': ok(pageOf(rows)) });
}

async function findTable() {
  const table = await screen.findByRole('table', { name: t.table.label });
  await within(table).findByRole('link', { name: 'admin' });
  return table;
}

describe('the roles list', { timeout: 20_000 }, () => {
  it('links each role to its page and its member count to the users holding it', async () => {
    mockRolesApi();
    renderApp('/roles');

    const table = await findTable();
    expect(within(table).getByRole('link', { name: 'manager' }).getAttribute('href')).toBe('/roles/2');
    const members = within(table).getByRole('link', { name: t.members(1_204, 'manager') });
    expect(members.textContent).toBe('1,204');
    expect(members.getAttribute('href')).toBe('/users?filters[role_id][]=2');
    expect(within(table).getByText('Everything')).toBeTruthy();
    expect(within(table).getByText('16')).toBeTruthy();
    expect(screen.getByRole('button', { name: t.export.button })).toBeTruthy();
  });

  it('shows member counts as plain numbers to a viewer who may not open users', async () => {
    mockRolesApi(['roles.view']);
    renderApp('/roles');

    const table = await findTable();
    expect(within(table).getByText('1,204')).toBeTruthy();
    expect(within(table).queryByRole('link', { name: t.members(1_204, 'manager') })).toBeNull();
  });

  it('sends the search, a permission filter and a sort with the query', async () => {
    const api = mockRolesApi();
    const { router } = renderApp('/roles');
    const table = await findTable();

    fireEvent.change(screen.getByRole('searchbox', { name: t.search.label }), { target: { value: 'man' } });
    await waitFor(() => expect(api.callsTo('roles.list').at(-1)).toMatchObject({ q: 'man' }));

    fireEvent.click(screen.getByRole('button', { name: t.filters.button }));
    fireEvent.click(await screen.findByRole('checkbox', { name: en.permissions.names['users.export']?.label }));
    fireEvent.click(screen.getByRole('button', { name: t.filters.apply }));
    await waitFor(() =>
      expect(api.callsTo('roles.list').at(-1)).toMatchObject({ q: 'man', filters: { permission: ['users.export'] } }),
    );
    expect(router.state.location.search).toContain('filters[permission][]=users.export');

    const usersHeader = within(table).getByRole('columnheader', { name: t.columns.users_count });
    fireEvent.click(within(usersHeader).getByRole('button', { name: t.columns.users_count }));
    await waitFor(() => expect(api.callsTo('roles.list').at(-1)).toMatchObject({ sort: 'users_count', dir: 'asc' }));
    // Only the contract's sorts are offered.
    const permissionsHeader = within(table).getByRole('columnheader', { name: t.columns.permissions_count });
    expect(within(permissionsHeader).queryByRole('button')).toBeNull();
  });

  it('shows a users-count range from a link as a chip and sends it', async () => {
    const api = mockRolesApi();
    renderApp('/roles?filters[users_count][from]=1');

    const chips = await screen.findByRole('list', { name: t.filters.chipsLabel });
    expect(within(chips).getByText(t.filters.usersRange(1, undefined))).toBeTruthy();
    await waitFor(() => expect(api.callsTo('roles.list')[0]).toMatchObject({ filters: { users_count: { from: 1 } } }));
  });

  it('says so when there are no roles at all', async () => {
    mockRolesApi('all', []);
    renderApp('/roles');

    expect(await screen.findByText(t.empty.noneTitle)).toBeTruthy();
    expect(screen.getByText(t.empty.noneBody)).toBeTruthy();
  });
});

describe('the Roles navigation entry', { timeout: 20_000 }, () => {
  it('appears with roles.view', async () => {
    mockTrpc({ 'auth.me': ok(sessionOf(['roles.view'])) });
    renderApp('/account');

    const link = (await screen.findAllByRole('link', { name: en.nav.roles }))[0];
    expect(link?.getAttribute('href')).toBe('/roles');
  });

  it('is absent without roles.view', async () => {
    mockTrpc({ 'auth.me': ok(sessionOf(['users.view', 'audit.view'])) });
    renderApp('/account');

    await screen.findAllByRole('link', { name: en.nav.audit });
    expect(screen.queryByRole('link', { name: en.nav.roles })).toBeNull();
  });
});

describe('the New role button', { timeout: 20_000 }, () => {
  it('leads to the new role form with roles.create', async () => {
    mockRolesApi(['roles.view', 'roles.create']);
    renderApp('/roles');

    const link = await screen.findByRole('link', { name: roleEditorMessages.newRole });
    expect(link.getAttribute('href')).toBe('/roles/new');
  });

  it('is absent without roles.create', async () => {
    mockRolesApi(['roles.view', 'roles.update']);
    renderApp('/roles');

    await findTable();
    expect(screen.queryByRole('link', { name: roleEditorMessages.newRole })).toBeNull();
  });
});

describe('a role’s page', { timeout: 20_000 }, () => {
  const show = ok({
    item: { id: 2, name: 'manager', guard_name: 'web', permissions: [], permissions_count: 0, users_count: 4 },
    meta: { loaded_relations: ['permissions'], loaded_counts: ['permissions_count'], loaded_appends: [] },
  });

  it('links to the users holding the role, for a viewer who may open users', async () => {
    mockTrpc({ 'auth.me': ok(sessionOf(['roles.view', 'users.view'])), 'roles.show': show });
    renderApp('/roles/2');

    const link = await screen.findByRole('link', { name: roleEditorMessages.show.members(4) });
    expect(link.getAttribute('href')).toBe('/users?filters[role_id][]=2');
  });

  it('has no such link without users.view', async () => {
    mockTrpc({ 'auth.me': ok(sessionOf(['roles.view'])), 'roles.show': show });
    renderApp('/roles/2');

    await screen.findByRole('heading', { level: 1, name: 'manager' });
    expect(screen.getByText(roleEditorMessages.show.members(4))).toBeTruthy();
    expect(screen.queryByRole('link', { name: roleEditorMessages.show.members(4) })).toBeNull();
  });
});
