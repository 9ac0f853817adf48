import { screen } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { en } from '../../i18n/en';
import { server, trpc, trpcResult } from '../../test/msw';
import { renderApp } from '../../test/render-app';
import { sessionOf } from '../../test/trpc-mock';

describe('unknown routes', () => {
  beforeEach(() => {
    server.use(trpc.query('auth.me', () => trpcResult(sessionOf('all'))));
  });

  it('shows the 404 page inside the layout, with a way back', async () => {
    renderApp('/no/such/page');

    expect(await screen.findByRole('heading', { level: 1, name: en.notFound.title })).toBeTruthy();
    expect(screen.getByRole('link', { name: en.notFound.backHome }).getAttribute('href')).toBe('/');
    expect(screen.getByText(en.app.name)).toBeTruthy();
  });
});
