import type { UsersListResult } from '@app/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { en } from '../../../i18n/en';
import { ATTRIBUTE_FIELDS } from '../../../test/attribute-fixtures';
import { renderApp } from '../../../test/render-app';
import { ok } from '../../../test/trpc-mock';
import { listOf, mockUsersApi, openMenu, userRow } from './users-list.test-support';

const t = en.usersList;
const a = t.attributes;

// Three users holding custom attribute values; User 2 manages User 1 and User 3 manages a user
// the page does not show (#99).
const ROWS = [
  userRow(1, { attributes: { department: 'Sales', remote: true, start_date: '2026-01-05', manager: 2, level: 3 } }),
  userRow(2, { attributes: { department: 'Support', remote: false } }),
  userRow(3, { attributes: { manager: 99 } }),
];
const answer: UsersListResult = { ...listOf(ROWS), attributes: ATTRIBUTE_FIELDS };

const mockApi = () => mockUsersApi('all', 3, { 'users.list': () => ok(answer) });

async function findTable() {
  const table = await screen.findByRole('table', { name: t.table.label });
  await within(table).findByRole('link', { name: 'User 1' });
  return table;
}

describe('users list: custom attributes', { timeout: 20_000 }, () => {
  it('offers each attribute as a column, off until shown, remembered', async () => {
    mockApi();
    renderApp('/users');
    const table = await findTable();
    expect(within(table).queryByRole('columnheader', { name: 'Department' })).toBeNull();

    openMenu(t.view.columns);
    const item = await screen.findByRole('menuitemcheckbox', { name: 'Department' });
    expect(item.getAttribute('aria-checked')).toBe('false');
    fireEvent.click(item);
    fireEvent.keyDown(item, { key: 'Escape' });
    expect(await within(table).findByRole('columnheader', { name: 'Department' })).toBeTruthy();
    expect(JSON.parse(window.localStorage.getItem('users_table_shown_columns') ?? '[]')).toEqual([
      'attributes.department',
    ]);
  });

  it('writes values by type: yes/no in words, a date as a date, a manager by name or as a link', async () => {
    window.localStorage.setItem(
      'users_table_shown_columns',
      JSON.stringify(['attributes.remote', 'attributes.start_date', 'attributes.manager', 'attributes.level']),
    );
    mockApi();
    renderApp('/users');
    const table = await findTable();
    const [, first, second, third] = within(table).getAllByRole('row') as [HTMLElement, ...HTMLElement[]];
    expect(within(first as HTMLElement).getByText(a.yes)).toBeTruthy();
    expect(within(second as HTMLElement).getByText(a.no)).toBeTruthy();
    expect(within(first as HTMLElement).getByText('Jan 5, 2026')).toBeTruthy();
    expect(
      within(first as HTMLElement)
        .getByRole('link', { name: 'User 2' })
        .getAttribute('href'),
    ).toBe('/users/2');
    expect(
      within(third as HTMLElement)
        .getByRole('link', { name: a.userId(99) })
        .getAttribute('href'),
    ).toBe('/users/99');
  });

  it('sorts by an attribute from its header', async () => {
    window.localStorage.setItem('users_table_shown_columns', JSON.stringify(['attributes.start_date']));
    const api = mockApi();
    const { router } = renderApp('/users');
    const table = await findTable();
    const header = within(table).getByRole('columnheader', { name: 'Start date' });
    fireEvent.click(within(header).getByRole('button', { name: 'Start date' }));

    await waitFor(() => expect(router.state.location.search).toBe('?sort=attributes.start_date&dir=asc'));
    await waitFor(() =>
      expect(api.callsTo('users.list').at(-1)).toMatchObject({ sort: 'attributes.start_date', dir: 'asc' }),
    );
  });

  it('exports the attribute columns shown', async () => {
    window.localStorage.setItem('users_table_shown_columns', JSON.stringify(['attributes.department']));
    window.localStorage.setItem('users_table_hidden_columns', JSON.stringify(['email', 'id', 'roles', 'created_at']));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    mockApi();
    renderApp('/users');
    await findTable();
    openMenu(t.export.button);
    fireEvent.click(await screen.findByRole('menuitem', { name: t.export.csv }));
    const url = new URL((click.mock.contexts[0] as HTMLAnchorElement).href);
    expect(decodeURIComponent(url.search)).toBe(
      '?format=csv&columns[]=name&columns[]=roles_count&columns[]=is_active&columns[]=attributes.department',
    );
  });

  it('filters by attributes in the form: any of an enum’s values, a date from, yes/no, text, no value', async () => {
    const api = mockApi();
    const { router } = renderApp('/users');
    await findTable();
    fireEvent.click(screen.getByRole('button', { name: t.filters.button }));
    const department = await screen.findByRole('group', { name: 'Department' });
    fireEvent.click(within(department).getByRole('checkbox', { name: 'Sales' }));
    fireEvent.click(within(department).getByRole('checkbox', { name: 'Support' }));
    fireEvent.change(screen.getByLabelText(a.filters.from('Start date')), { target: { value: '2026-01-01' } });
    fireEvent.change(screen.getByLabelText('Works remotely'), { target: { value: 'true' } });
    fireEvent.change(screen.getByLabelText(a.filters.contains('Employee number')), { target: { value: '0042' } });
    fireEvent.click(screen.getByRole('switch', { name: a.filters.empty('Manager') }));
    fireEvent.click(screen.getByRole('button', { name: t.filters.apply }));

    const expected = {
      department: ['Sales', 'Support'],
      start_date: { from: '2026-01-01' },
      remote: ['true'],
      employee_number: { contains: '0042' },
      manager: { empty: true },
    };
    await waitFor(() => expect(api.callsTo('users.list').at(-1)).toMatchObject({ filters: { attributes: expected } }));
    const search = decodeURIComponent(router.state.location.search);
    expect(search).toContain('filters[attributes][department][]=Sales&filters[attributes][department][]=Support');
    expect(search).toContain('filters[attributes][start_date][from]=2026-01-01');
    expect(search).toContain('filters[attributes][manager][empty]=true');
  });

  it('says the filters in force as chips, each removable on its own', async () => {
    const api = mockApi();
    const { router } = renderApp(
      '/users?filters[attributes][department][]=Sales&filters[attributes][department][]=Support' +
        '&filters[attributes][start_date][from]=2026-01-01&filters[attributes][level][from]=2&filters[attributes][level][to]=5' +
        '&filters[attributes][remote][]=false&filters[attributes][homepage][contains]=example&filters[attributes][manager][empty]=true',
    );
    await findTable();
    const chips = screen.getByRole('list', { name: t.filters.chipsLabel });
    const texts = within(chips)
      .getAllByRole('listitem')
      .map((chip) => chip.textContent);
    expect(texts).toEqual(
      expect.arrayContaining([
        'Department:Sales or Support',
        'Start date:from Jan 1, 2026',
        'Level:2 to 5',
        'Works remotely:No',
        'Homepage:contains “example”',
        'Manager:no value',
      ]),
    );
    fireEvent.click(
      within(chips).getByRole('button', { name: t.filters.removeChip('Department', 'Sales or Support') }),
    );
    await waitFor(() => expect(decodeURIComponent(router.state.location.search)).not.toContain('department'));
    expect(decodeURIComponent(router.state.location.search)).toContain('filters[attributes][manager][empty]=true');
    await waitFor(() =>
      expect(api.callsTo('users.list').at(-1)).not.toMatchObject({
        filters: { attributes: { department: ['Sales'] } },
      }),
    );
  });

  it('keeps an attribute filter the form does not show when the form is applied', async () => {
    // An answer that names no attributes (yet): the form has no field for the URL's condition.
    mockUsersApi('all', 3, { 'users.list': () => ok(listOf(ROWS)) });
    const { router } = renderApp('/users?filters[attributes][department][]=Sales');
    await findTable();
    fireEvent.click(screen.getByRole('button', { name: t.filters.buttonCount(1) }));
    fireEvent.change(await screen.findByLabelText(t.filters.status), { target: { value: 'active' } });
    fireEvent.click(screen.getByRole('button', { name: t.filters.apply }));
    await waitFor(() =>
      expect(decodeURIComponent(router.state.location.search)).toContain('filters[is_active]=active'),
    );
    expect(decodeURIComponent(router.state.location.search)).toContain('filters[attributes][department][]=Sales');
  });
});
