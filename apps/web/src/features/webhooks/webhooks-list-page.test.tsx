import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { en } from '../../i18n/en';
import { webhook } from '../../test/integration-fixtures';
import { renderApp } from '../../test/render-app';
import { mockTrpc, ok, sessionOf } from '../../test/trpc-mock';

const t = en.webhooks;

describe('webhooks list', () => {
  it('is in the navigation only with webhooks.manage', async () => {
    mockTrpc({ 'auth.me': ok(sessionOf(['users.view'])), 'tokens.list': ok({ items: [] }) });
    renderApp('/account/tokens');
    const nav = await screen.findByRole('navigation', { name: en.nav.label });
    expect(within(nav).queryByRole('link', { name: en.nav.webhooks })).toBeNull();
  });

  it('shows the navigation entry with webhooks.manage', async () => {
    mockTrpc({ 'auth.me': ok(sessionOf(['webhooks.manage'])), 'webhooks.list': ok({ items: [] }) });
    renderApp('/webhooks');
    const nav = await screen.findByRole('navigation', { name: en.nav.label });
    expect(within(nav).getByRole('link', { name: en.nav.webhooks }).getAttribute('href')).toBe('/webhooks');
  });

  it('explains a refusal instead of the page without webhooks.manage, and asks nothing', async () => {
    const api = mockTrpc({ 'auth.me': ok(sessionOf(['users.view'])) });
    renderApp('/webhooks');
    expect(await screen.findByText(en.common.forbiddenTitle)).toBeTruthy();
    expect(api.callsTo('webhooks.list')).toEqual([]);
  });

  it('lists each endpoint with its events and its state', async () => {
    mockTrpc({
      'auth.me': ok(sessionOf(['webhooks.manage'])),
      'webhooks.list': ok({
        items: [
          webhook({ id: 1, url: 'https://a.example.com/hook' }),
          webhook({ id: 2, url: 'https://b.example.com/hook', active: false, description: '' }),
          webhook({
            id: 3,
            url: 'https://c.example.com/hook',
            active: false,
            disabled_reason: 'every delivery failed for 3 days',
          }),
          webhook({
            id: 4,
            url: 'https://d.example.com/hook',
            events: ['user.created'],
            failing_since: '2026-11-19T08:00:00.000Z',
            circuit: { state: 'open', open_until: '2026-11-20T08:05:00.000Z' },
          }),
        ],
      }),
    });
    renderApp('/webhooks');

    const list = await screen.findByRole('list', { name: t.list.label });
    const [active, paused, disabled, failing] = within(list).getAllByRole('listitem') as HTMLElement[] as [
      HTMLElement,
      HTMLElement,
      HTMLElement,
      HTMLElement,
    ];
    expect(within(active).getByRole('link', { name: 'https://a.example.com/hook' }).getAttribute('href')).toBe(
      '/webhooks/1',
    );
    expect(within(active).getByText(t.status.active)).toBeTruthy();
    expect(within(active).getByText(t.eventsCount(2))).toBeTruthy();
    expect(within(paused).getByText(t.status.paused)).toBeTruthy();
    expect(within(paused).getByText(t.noDescription)).toBeTruthy();
    expect(within(disabled).getByText(t.status.disabled)).toBeTruthy();
    expect(within(disabled).getByText(t.status.disabledBecause('every delivery failed for 3 days'))).toBeTruthy();
    expect(within(failing).getByText(t.status.failingSince('2026-11-19T08:00:00.000Z'))).toBeTruthy();
    expect(within(failing).getByText(t.status.circuitOpen)).toBeTruthy();
    expect(within(failing).getByText(t.eventsCount(1))).toBeTruthy();
  });

  it('explains webhooks when there are none and offers to add one', async () => {
    mockTrpc({ 'auth.me': ok(sessionOf(['webhooks.manage'])), 'webhooks.list': ok({ items: [] }) });
    renderApp('/webhooks');
    expect(await screen.findByText(t.empty.title)).toBeTruthy();
    expect(screen.getByRole('link', { name: t.add }).getAttribute('href')).toBe('/webhooks/new');
  });

  it('deletes an endpoint after confirmation', async () => {
    const api = mockTrpc({
      'auth.me': ok(sessionOf(['webhooks.manage'])),
      'webhooks.list': ok({ items: [webhook({ id: 5, url: 'https://a.example.com/hook' })] }),
      'webhooks.delete': ok(null),
    });
    renderApp('/webhooks');

    const menu = await screen.findByRole('button', { name: t.list.actions('https://a.example.com/hook') });
    fireEvent.pointerDown(menu, { button: 0, ctrlKey: false });
    fireEvent.click(await screen.findByRole('menuitem', { name: t.list.delete }));
    const dialog = await screen.findByRole('dialog', { name: t.remove.title('https://a.example.com/hook') });
    expect(api.callsTo('webhooks.delete')).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: t.remove.confirm }));
    await waitFor(() => expect(api.callsTo('webhooks.delete')).toEqual([{ id: 5 }]));
    expect(await screen.findByText(t.remove.done)).toBeTruthy();
  });
});
