import { fireEvent, screen, within } from '@testing-library/react';
import { HttpResponse, http } from 'msw';
import { describe, expect, it } from 'vitest';
import { en } from '../../i18n/en';
import { server } from '../../test/msw';
import { renderApp } from '../../test/render-app';
import { fail, mockTrpc, ok, sessionOf, type TrpcReply } from '../../test/trpc-mock';

const READY = { status: 'ok', version: '1.4.2', checks: { database: 'ok' } };
const DB_DOWN = {
  message: 'The database cannot be reached right now. Try again in a moment.',
  code: 'UNAVAILABLE',
  httpStatus: 503,
};

// The page's question may travel in one request with the header's (running jobs): the mock
// answers each procedure of a batch.
const statusApi = (ready: TrpcReply | (() => TrpcReply)) =>
  mockTrpc({ 'auth.me': ok(sessionOf('all')), 'system.ready': typeof ready === 'function' ? ready : () => ready });

describe('home page', () => {
  it('shows a loading skeleton while the status is being checked', async () => {
    statusApi('pending');
    renderApp('/status');
    expect(await screen.findByRole('status', { name: en.status.loading })).toBeTruthy();
  });

  it('shows the API version and a reachable database when the service is ready', async () => {
    statusApi(ok(READY));
    renderApp('/status');

    expect(await screen.findByText(en.status.apiVersion('1.4.2'))).toBeTruthy();
    expect(screen.getByText(en.status.databaseReachable)).toBeTruthy();
    expect(screen.getByText(en.status.operational)).toBeTruthy();
    expect(screen.getByRole('heading', { level: 1, name: en.home.title })).toBeTruthy();
  });

  it('shows the server message when the database is down, and recovers after Retry', async () => {
    let asked = 0;
    statusApi(() => {
      asked += 1;
      return asked === 1 ? fail(DB_DOWN) : ok(READY);
    });
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
    statusApi(ok(READY));
    // A proxy in front of the API answers with a page of its own (whatever else the request asked).
    server.use(
      http.get('*/api/trpc/:paths', ({ params }) =>
        String(params.paths).split(',').includes('system.ready')
          ? new HttpResponse('Bad gateway', { status: 502 })
          : undefined,
      ),
    );
    renderApp('/status');

    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText(en.status.errorTitle)).toBeTruthy();
    expect(within(alert).getByText(en.errors.network)).toBeTruthy();
  });
});
