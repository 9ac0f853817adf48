import { fireEvent, screen, within } from '@testing-library/react';
import { delay } from 'msw';
import { beforeEach, describe, expect, it } from 'vitest';
import { en } from '../../i18n/en';
import { server, trpc, trpcError, trpcResult } from '../../test/msw';
import { renderApp } from '../../test/render-app';
import { sessionOf } from '../../test/trpc-mock';

const READY = { status: 'ok', version: '1.4.2', checks: { database: 'ok' } };
const DB_DOWN = {
  message: 'The database cannot be reached right now. Try again in a moment.',
  code: 'UNAVAILABLE',
  httpStatus: 503,
};

describe('home page', () => {
  beforeEach(() => {
    server.use(trpc.query('auth.me', () => trpcResult(sessionOf('all'))));
  });

  it('shows a loading skeleton while the status is being checked', async () => {
    server.use(
      trpc.query('system.ready', async () => {
        await delay('infinite');
        return trpcResult(READY);
      }),
    );
    renderApp('/status');
    expect(await screen.findByRole('status', { name: en.status.loading })).toBeTruthy();
  });

  it('shows the API version and a reachable database when the service is ready', async () => {
    server.use(trpc.query('system.ready', () => trpcResult(READY)));
    renderApp('/status');

    expect(await screen.findByText(en.status.apiVersion('1.4.2'))).toBeTruthy();
    expect(screen.getByText(en.status.databaseReachable)).toBeTruthy();
    expect(screen.getByText(en.status.operational)).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: en.home.title })).toBeTruthy();
  });

  it('shows the server message when the database is down, and recovers after Retry', async () => {
    server.use(
      trpc.query('system.ready', () => trpcError(DB_DOWN), { once: true }),
      trpc.query('system.ready', () => trpcResult(READY)),
    );
    renderApp('/status');

    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText(en.status.databaseErrorTitle)).toBeTruthy();
    expect(within(alert).getByText(DB_DOWN.message)).toBeTruthy();
    expect(screen.getByText(en.status.degraded)).toBeTruthy();

    fireEvent.click(within(alert).getByRole('button', { name: en.status.retry }));

    expect(await screen.findByText(en.status.apiVersion('1.4.2'))).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('explains a failure that never reached the API in plain words', async () => {
    server.use(trpc.query('system.ready', () => new Response('Bad gateway', { status: 502 })));
    renderApp('/status');

    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText(en.status.errorTitle)).toBeTruthy();
    expect(within(alert).getByText(en.errors.network)).toBeTruthy();
  });
});
