import type { AuditListResult, AuditRow } from '@app/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { en } from '../../i18n/en';
import { signInRow } from '../../test/integration-fixtures';
import { renderApp } from '../../test/render-app';
import { mockTrpc, ok, sessionOf } from '../../test/trpc-mock';

const t = en.audit;

const page = (rows: AuditRow[]): AuditListResult => ({
  rows,
  meta: { page: 1, perPage: 25, total: rows.length, totalExact: true, pageCount: 1 },
  filters: {},
});

const scimCreate = signInRow({
  id: 5,
  action: 'user.create',
  target_ids: [42],
  target_names: { '42': 'Grace Hopper' },
  via: { kind: 'scim', name: 'SCIM provisioning' },
});

describe('the audit log by the door a change came through', () => {
  it('opens what identity providers did in one click, said as a chip that can be removed', async () => {
    const api = mockTrpc({ 'auth.me': ok(sessionOf('all')), 'audit.list': ok(page([scimCreate])) });
    const { router } = renderApp('/audit');

    fireEvent.click(await screen.findByRole('link', { name: t.scimChanges }));
    await waitFor(() => expect(api.callsTo('audit.list').at(-1)).toMatchObject({ filters: { via: 'scim' } }));
    expect(decodeURIComponent(router.state.location.search)).toBe('?filters[via]=scim');
    const chips = await screen.findByRole('list', { name: t.filters.chipsLabel });
    expect(within(chips).getByRole('listitem').textContent).toBe(`${t.filters.chip.via}:${t.filters.viaChoices.scim}`);

    fireEvent.click(
      within(chips).getByRole('button', { name: t.filters.removeChip(t.filters.chip.via, t.filters.viaChoices.scim) }),
    );
    await waitFor(() => expect(router.state.location.search).toBe(''));
  });

  it('offers every door in the filter form and sends the one chosen', async () => {
    const api = mockTrpc({ 'auth.me': ok(sessionOf('all')), 'audit.list': ok(page([])) });
    const { router } = renderApp('/audit');

    fireEvent.click(await screen.findByRole('button', { name: t.filters.button }));
    const select = (await screen.findByRole('combobox', { name: t.filters.via })) as HTMLSelectElement;
    expect([...select.options].map((option) => option.textContent)).toEqual([
      t.filters.viaAll,
      ...Object.values(t.filters.viaChoices),
    ]);
    fireEvent.change(select, { target: { value: 'token' } });
    fireEvent.click(screen.getByRole('button', { name: t.filters.apply }));
    await waitFor(() => expect(api.callsTo('audit.list').at(-1)).toMatchObject({ filters: { via: 'token' } }));
    expect(decodeURIComponent(router.state.location.search)).toContain('filters[via]=token');
  });
});
