import type { AuditListResult, AuditRow } from '@app/contracts';
import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { en } from '../../i18n/en';
import { NO_SECURITY_ANSWERS } from '../../test/integration-fixtures';
import { renderApp } from '../../test/render-app';
import { mockTrpc, ok, sessionOf } from '../../test/trpc-mock';
import { userShow } from '../../test/user-fixtures';

const t = en.audit;

function event(overrides: Partial<AuditRow>): AuditRow {
  return {
    id: 1,
    occurred_at: '2026-11-20T10:00:00.000Z',
    actor_id: 1,
    actor_name: 'Ada Admin',
    action: 'user.update',
    target_type: 'user',
    target_ids: [42],
    target_count: 1,
    target_names: { '42': 'Ann Lee' },
    target_jobs: {},
    changes: {},
    hidden_changes: [],
    ip: '203.0.113.9',
    via: { kind: 'session', name: null },
    request_id: 'req-1',
    user_agent: null,
    ...overrides,
  };
}

const page = (rows: AuditRow[], total = rows.length): AuditListResult => ({
  rows,
  meta: { page: 1, perPage: 10, total, totalExact: true, pageCount: Math.ceil(total / 10) },
  filters: {},
});

describe('a user’s History', () => {
  it('lists the user’s events with who, the door, the IP and each field before → after', async () => {
    const api = mockTrpc({
      'auth.me': ok(sessionOf('all')),
      ...NO_SECURITY_ANSWERS,
      'users.show': ok(userShow()),
      'audit.list': ok(
        page(
          [
            event({ id: 9, action: 'user.deactivate', changes: { is_active: { from: true, to: false } } }),
            event({
              id: 8,
              via: { kind: 'token', name: 'hr-sync' },
              changes: {
                name: { from: 'Ann Li', to: 'Ann Lee' },
                roles: { from: ['viewer'], to: ['viewer', 'manager'] },
              },
            }),
          ],
          37,
        ),
      ),
    });
    renderApp('/users/42');

    const history = await screen.findByRole('region', { name: t.history.title });
    const entries = await within(history).findAllByRole('listitem');
    expect(entries).toHaveLength(2);
    const [deactivation, edit] = entries as [HTMLElement, HTMLElement];
    expect(deactivation.textContent).toContain(t.actions['user.deactivate']);
    expect(deactivation.textContent).toContain(t.history.by('Ada Admin'));
    expect(deactivation.textContent).toContain(`${t.values.active}`);
    expect(deactivation.textContent).toContain(`${t.values.inactive}`);
    expect(deactivation.textContent).toContain('203.0.113.9');
    expect(deactivation.textContent).toContain(t.via.session);
    expect(edit.textContent).toContain(t.via.token('hr-sync'));
    expect(within(edit).getByText('Ann Li').textContent).toBe('Ann Li');
    expect(within(edit).getByText('viewer, manager')).toBeTruthy();
    expect(
      within(edit)
        .getByRole('link', { name: /Details/ })
        .getAttribute('href'),
    ).toBe('/audit/8');
    // The rest of the history is one link away, on the audit log filtered to this user.
    const all = within(history).getByRole('link', { name: t.history.seeAll(37) });
    expect(all.getAttribute('href')).toBe('/audit?filters[user_id]=42');
    expect(api.callsTo('audit.list')[0]).toEqual({ page: 1, perPage: 10, filters: { user_id: 42 } });
  });

  it('names whom the user acted on when they were the actor, and who acted when they were the target', async () => {
    mockTrpc({
      'auth.me': ok(sessionOf('all')),
      ...NO_SECURITY_ANSWERS,
      'users.show': ok(userShow()),
      'audit.list': ok(
        page([
          // Ann (42) renamed Bo (7): on Ann's page the line is about Bo, not Ann.
          event({
            id: 4,
            actor_id: 42,
            actor_name: 'Ann Lee',
            target_ids: [7],
            target_names: { '7': 'Bo Two' },
            changes: { name: { from: 'Bo One', to: 'Bo Two' } },
          }),
          event({
            id: 3,
            actor_id: 42,
            actor_name: 'Ann Lee',
            action: 'users.bulk.delete',
            target_ids: [8, 9, 10],
            target_count: 3,
            target_names: {},
          }),
          event({
            id: 2,
            actor_id: 42,
            actor_name: 'Ann Lee',
            action: 'webhook.create',
            target_type: 'webhook',
            target_ids: [5],
            target_names: {},
          }),
          event({ id: 1, actor_id: 42, actor_name: 'Ann Lee', action: 'auth.login', target_ids: [42] }),
        ]),
      ),
    });
    renderApp('/users/42');

    const history = await screen.findByRole('region', { name: t.history.title });
    const [rename, bulk, webhook, login] = (await within(history).findAllByRole('listitem')) as HTMLElement[];
    expect(rename?.textContent).toContain(`${t.history.about} Bo Two`);
    expect(rename?.textContent).not.toContain(t.history.by('Ann Lee'));
    expect(
      within(rename as HTMLElement)
        .getByRole('link', { name: 'Bo Two' })
        .getAttribute('href'),
    ).toBe('/users/7');
    expect(bulk?.textContent).toContain(`${t.history.about} ${en.common.erasedUser(8)} ${t.history.more(2)}`);
    expect(webhook?.textContent).toContain(`${t.history.about} ${t.targetRef('webhook', 5)}`);
    // Her own sign-in: she is the target, so who acted is said.
    expect(login?.textContent).toContain(t.history.by('Ann Lee'));
  });

  it('says in one line when the history cannot be loaded, and tries again', async () => {
    const api = mockTrpc({
      'auth.me': ok(sessionOf('all')),
      ...NO_SECURITY_ANSWERS,
      'users.show': ok(userShow()),
      'audit.list': { error: { message: 'Down for maintenance.', code: 'UNAVAILABLE', httpStatus: 503 } },
    });
    renderApp('/users/42');

    const history = await screen.findByRole('region', { name: t.history.title });
    expect(await within(history).findByText(t.history.error)).toBeTruthy();
    api.set('audit.list', ok(page([event({ id: 9, action: 'user.deactivate' })])));
    fireEvent.click(within(history).getByRole('button', { name: t.history.retry }));
    expect(await within(history).findAllByRole('listitem')).toHaveLength(1);
  });

  it('is not on the page of a viewer without audit.view', async () => {
    const api = mockTrpc({ 'auth.me': ok(sessionOf(['users.view'])), 'users.show': ok(userShow({}, ['users.view'])) });
    renderApp('/users/42');
    await screen.findByRole('heading', { level: 1, name: 'Ann Lee' });
    expect(screen.queryByRole('region', { name: t.history.title })).toBeNull();
    expect(api.callsTo('audit.list')).toEqual([]);
  });
});
