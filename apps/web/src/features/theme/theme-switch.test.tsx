import { fireEvent, screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { en } from '../../i18n/en';
import { server, trpc, trpcResult } from '../../test/msw';
import { renderApp } from '../../test/render-app';
import { sessionOf } from '../../test/trpc-mock';
import { THEME_STORAGE_KEY } from './theme';

describe('theme switch', () => {
  beforeEach(() => {
    server.use(trpc.query('auth.me', () => trpcResult(sessionOf('all'))));
  });

  it('stores the chosen theme and toggles the dark class on <html>', async () => {
    server.use(
      trpc.query('system.ready', () => trpcResult({ status: 'ok', version: '1.0.0', checks: { database: 'ok' } })),
    );
    renderApp('/status');
    const root = document.documentElement;

    const system = await screen.findByRole('radio', { name: en.theme.system });
    expect((system as HTMLInputElement).checked).toBe(true);
    expect(root.classList.contains('dark')).toBe(false);

    fireEvent.click(screen.getByRole('radio', { name: en.theme.dark }));
    expect(window.localStorage.getItem(THEME_STORAGE_KEY)).toBe('dark');
    expect(root.classList.contains('dark')).toBe(true);

    fireEvent.click(screen.getByRole('radio', { name: en.theme.light }));
    expect(window.localStorage.getItem(THEME_STORAGE_KEY)).toBe('light');
    expect(root.classList.contains('dark')).toBe(false);
  });

  it('starts from the stored choice', async () => {
    window.localStorage.setItem(THEME_STORAGE_KEY, 'dark');
    server.use(
      trpc.query('system.ready', () => trpcResult({ status: 'ok', version: '1.0.0', checks: { database: 'ok' } })),
    );
    renderApp('/status');

    const dark = await screen.findByRole('radio', { name: en.theme.dark });
    expect((dark as HTMLInputElement).checked).toBe(true);
    expect(document.documentElement.classList.contains('dark')).toBe(true);
  });
});
