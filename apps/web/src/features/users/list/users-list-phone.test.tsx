import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { en } from '../../../i18n/en';
import { renderApp } from '../../../test/render-app';
import { mockUsersApi, openMenu } from './users-list.test-support';

const t = en.usersList;

/** A phone: every `(min-width: …)` query is false. */
function narrowScreen() {
  vi.stubGlobal(
    'matchMedia',
    (query: string) =>
      ({
        matches: false,
        media: query,
        addEventListener: () => {},
        removeEventListener: () => {},
      }) as unknown as MediaQueryList,
  );
}

describe('users list on a phone', { timeout: 20_000 }, () => {
  beforeEach(narrowScreen);
  afterEach(() => vi.unstubAllGlobals());

  it('shows each user as a card with every column as label and value, its menu and its checkbox', async () => {
    mockUsersApi('all', 42);
    renderApp('/users');

    const cards = await screen.findByRole('list', { name: t.table.label });
    await within(cards).findByRole('link', { name: 'User 42' });
    expect(screen.queryByRole('table')).toBeNull();
    const items = within(cards).getAllByRole('listitem');
    expect(items).toHaveLength(10);
    const first = items[0] as HTMLElement;
    const labels = within(first)
      .getAllByRole('term')
      .map((dt) => dt.textContent);
    expect(labels).toEqual([
      t.columns.id,
      t.columns.email,
      t.columns.roles_count,
      t.columns.roles,
      t.columns.is_active,
      t.columns.created_at,
    ]);
    expect(within(first).getByText('user42@example.com')).toBeTruthy();

    openMenu(t.rowActions.open('User 42'));
    expect(await screen.findByRole('menuitem', { name: t.rowActions.view })).toBeTruthy();
    fireEvent.keyDown(screen.getByRole('menu'), { key: 'Escape' });

    fireEvent.click(within(first).getByRole('checkbox', { name: t.table.selectRow('User 42') }));
    expect(await screen.findByText(t.selection.count(1))).toBeTruthy();
  });

  it('sorts from a "Sort by" choice, as the column headers would', async () => {
    mockUsersApi('all', 42);
    const { router } = renderApp('/users');
    await screen.findByRole('list', { name: t.table.label });

    fireEvent.change(screen.getByLabelText(t.view.sortBy), { target: { value: 'name:desc' } });
    expect(router.state.location.search).toBe('?sort=name&dir=desc');
  });
});
