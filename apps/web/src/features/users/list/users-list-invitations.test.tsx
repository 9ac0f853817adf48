import type { BulkRequest } from '@app/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { en } from '../../../i18n/en';
import { renderApp } from '../../../test/render-app';
import { ok } from '../../../test/trpc-mock';
import { dryRunReport, mockUsersApi } from './users-list.test-support';

const t = en.usersList;

async function findTable() {
  const table = await screen.findByRole('table', { name: t.table.label });
  await within(table).findAllByRole('link', { name: /User \d+/ });
  return table;
}

describe('users list: invitations', { timeout: 30_000 }, () => {
  it('filters by the invitation’s state from the filters form, as a chip and in the URL', async () => {
    const api = mockUsersApi('all', 12);
    const { router } = renderApp('/users');
    await findTable();

    fireEvent.click(screen.getByRole('button', { name: t.filters.button }));
    const states = await screen.findByRole('group', { name: t.filters.invitation });
    fireEvent.click(within(states).getByRole('checkbox', { name: t.filters.invitationStates.pending }));
    fireEvent.click(within(states).getByRole('checkbox', { name: t.filters.invitationStates.expired }));
    fireEvent.click(screen.getByRole('button', { name: t.filters.apply }));

    await waitFor(() =>
      expect(api.callsTo('users.list').at(-1)).toMatchObject({ filters: { invitation: ['pending', 'expired'] } }),
    );
    expect(decodeURIComponent(router.state.location.search)).toBe(
      '?filters[invitation][]=pending&filters[invitation][]=expired',
    );
    const chips = await screen.findByRole('list', { name: t.filters.chipsLabel });
    expect(within(chips).getByText(t.filters.chip.invitation, { exact: false })).toBeTruthy();
  });

  it('invites the selected users after the dry run says who will be invited and who is skipped', async () => {
    const api = mockUsersApi('all', 42, {
      'users.bulk': (input) =>
        ok(
          dryRunReport({
            operation: 'invite',
            dryRun: (input as { dryRun: boolean }).dryRun,
            requested: 2,
            affected: [42],
            skipped: [{ id: 41, code: 'ALREADY_SIGNED_IN', message: 'User 41 has already signed in.' }],
          }),
        ),
    });
    renderApp('/users');
    const table = await findTable();
    fireEvent.click(within(table).getByRole('checkbox', { name: t.table.selectRow('User 42') }));
    fireEvent.click(within(table).getByRole('checkbox', { name: t.table.selectRow('User 41') }));
    const bar = await screen.findByRole('region', { name: t.selection.label });
    fireEvent.click(within(bar).getByRole('button', { name: t.bulk.invite }));

    const dialog = await screen.findByRole('dialog', { name: t.bulk.title.invite(2) });
    expect(await within(dialog).findByText(t.bulk.affected.invite(1))).toBeTruthy();
    expect(within(dialog).getByText('User 41 has already signed in.')).toBeTruthy();
    expect(api.callsTo('users.bulk')).toEqual([{ operation: 'invite', ids: [41, 42], dryRun: true }]);

    fireEvent.click(within(dialog).getByRole('button', { name: t.bulk.confirm.invite(1) }));

    // The toast's library loads with the first toast: on a loaded machine that can take a while.
    expect(await screen.findByText(t.bulk.done.invite(1), {}, { timeout: 10_000 })).toBeTruthy();
    expect(api.callsTo('users.bulk')[1]).toEqual({ operation: 'invite', ids: [41, 42], dryRun: false });
  });

  it('warns before and after inviting that nobody will be sent a link while mail is off', async () => {
    mockUsersApi('all', 42, {
      'users.bulk': (input) =>
        ok(
          dryRunReport({
            operation: 'invite',
            dryRun: (input as { dryRun: boolean }).dryRun,
            requested: 1,
            affected: [42],
            invitations: { mailed: false, sent: (input as { dryRun: boolean }).dryRun ? 0 : 1 },
          }),
        ),
    });
    renderApp('/users');
    const table = await findTable();
    fireEvent.click(within(table).getByRole('checkbox', { name: t.table.selectRow('User 42') }));
    const bar = await screen.findByRole('region', { name: t.selection.label });
    fireEvent.click(within(bar).getByRole('button', { name: t.bulk.invite }));
    const dialog = await screen.findByRole('dialog');
    expect((await within(dialog).findByRole('note')).textContent).toBe(t.bulk.inviteUnmailed);
    fireEvent.click(within(dialog).getByRole('button', { name: t.bulk.confirm.invite(1) }));
    expect(await screen.findByText(t.bulk.inviteUnmailed, {}, { timeout: 10_000 })).toBeTruthy();
    expect(screen.getByText(t.bulk.done.invite(1))).toBeTruthy();
  });

  it('invites every match as a job: the dry run goes over the list’s own query', async () => {
    const api = mockUsersApi('all', 42, { 'users.bulk': 'pending' });
    renderApp('/users?filters[invitation][]=expired');
    const table = await findTable();
    fireEvent.click(within(table).getByRole('checkbox', { name: t.table.selectPage }));
    const bar = await screen.findByRole('region', { name: t.selection.label });
    fireEvent.click(within(bar).getByRole('button', { name: t.selection.selectAllMatching(42) }));
    await within(bar).findByText(t.selection.allMatching(42));
    fireEvent.click(within(bar).getByRole('button', { name: t.bulk.invite }));

    await screen.findByRole('dialog', { name: t.bulk.titleAll(t.bulk.invite, 42, true) });
    await waitFor(() => expect(api.callsTo('users.bulk')).toHaveLength(1));
    const [sent] = api.callsTo('users.bulk') as BulkRequest[];
    expect(sent).toEqual({
      operation: 'invite',
      selection: { query: { filters: { invitation: ['expired'] } }, except: [] },
      dryRun: true,
    });
  });

  it('offers no bulk invitation to a caller without users.update', async () => {
    mockUsersApi(['users.view', 'users.delete'], 12);
    renderApp('/users');
    const table = await findTable();
    fireEvent.click(within(table).getByRole('checkbox', { name: t.table.selectRow('User 12') }));
    const bar = await screen.findByRole('region', { name: t.selection.label });
    expect(within(bar).getByRole('button', { name: t.bulk.delete })).toBeTruthy();
    expect(within(bar).queryByRole('button', { name: t.bulk.invite })).toBeNull();
  });
});
