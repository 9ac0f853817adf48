import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { en } from '../i18n/en';
import { renderApp } from '../test/render-app';
import { mockTrpc, ok, sessionOf } from '../test/trpc-mock';

const READY = ok({ status: 'ok', version: '1.0.0', checks: { database: 'ok' } });

describe('layout', () => {
  it('shows no Users navigation without users.view', async () => {
    mockTrpc({ 'auth.me': ok(sessionOf(['roles.view'], { name: 'Rita Reader' })), 'system.ready': READY });
    renderApp('/status');

    const nav = await screen.findByRole('navigation', { name: en.nav.label });
    expect(within(nav).queryByRole('link', { name: en.nav.users })).toBeNull();
    expect(within(nav).getByRole('link', { name: en.nav.status })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Rita Reader' })).toBeTruthy();
  });

  it('shows Users navigation with users.view', async () => {
    mockTrpc({ 'auth.me': ok(sessionOf(['users.view'])), 'system.ready': READY });
    renderApp('/status');

    const nav = await screen.findByRole('navigation', { name: en.nav.label });
    expect(within(nav).getByRole('link', { name: en.nav.users }).getAttribute('href')).toBe('/users');
  });

  it('opens the same destinations from the menu button (the phone’s navigation), and closes on a choice', async () => {
    mockTrpc({ 'auth.me': ok(sessionOf(['users.view'])), 'system.ready': READY });
    renderApp('/status');

    const button = await screen.findByRole('button', { name: en.nav.openMenu });
    expect(button.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(button);
    const menus = await screen.findAllByRole('navigation', { name: en.nav.label });
    const menu = menus.find((nav) => nav.closest('[role="dialog"]')) as HTMLElement;
    expect(
      within(menu)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual([en.nav.users, en.jobs.nav, en.nav.status]);
    expect(within(menu).getByRole('link', { name: en.nav.status }).getAttribute('aria-current')).toBe('page');
    fireEvent.click(within(menu).getByRole('link', { name: en.nav.status }));
    expect(await screen.findByRole('button', { name: en.nav.openMenu, expanded: false })).toBeTruthy();
  });
});
