import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { providersMessages } from '../../i18n/providers-messages';
import { en } from '../../i18n/en';
import { renderApp } from '../../test/render-app';
import { mockRest, problem, restOk } from '../../test/rest-mock';
import { mockTrpc, ok, sessionOf } from '../../test/trpc-mock';
import type { Provider } from './providers-api';

const m = providersMessages;
const t = m.providerForm;

const acme: Provider = {
  id: 3,
  name: 'Acme SSO',
  issuer: 'https://id.acme.test/realms/staff',
  client_id: 'user-admin',
  client_secret_set: true,
  allowed_domains: ['acme.test'],
  create_users: false,
  default_roles: [],
  redirect_uri: 'https://admin.acme.test/api/auth/sso/3/callback',
  created_at: '2026-11-28T10:00:00.000Z',
  updated_at: '2026-11-28T10:00:00.000Z',
};
const META = { page: 1, perPage: 100, total: 2, totalExact: true, pageCount: 1 };
const roleRow = (id: number, name: string) => ({ id, name, description: null, users_count: 0, permissions_count: 0 });

describe('single sign-on providers', { timeout: 20_000 }, () => {
  it('is reached from the navigation only by holders of auth.manage', async () => {
    mockTrpc({ 'auth.me': ok(sessionOf(['auth.manage'])) });
    mockRest({ 'GET /auth/providers': restOk({ rows: [acme], meta: META }) });
    renderApp('/account');
    fireEvent.click(await screen.findByRole('link', { name: en.nav.signIn }));
    expect(await screen.findByRole('heading', { name: 'Acme SSO' })).toBeTruthy();
    expect(screen.getByText(m.providers.domains(['acme.test']))).toBeTruthy();
  });

  it('hides the navigation entry without auth.manage', async () => {
    mockTrpc({ 'auth.me': ok(sessionOf(['users.view', 'roles.view'])), 'users.list': 'pending' });
    renderApp('/account');
    expect(await screen.findByRole('link', { name: en.nav.roles })).toBeTruthy();
    expect(screen.queryByRole('link', { name: en.nav.signIn })).toBeNull();
  });

  it('adds a provider with its secret, domains and default roles, and shows the issuer’s discovery failure on its field', async () => {
    mockTrpc({
      'auth.me': ok(sessionOf('all')),
      'roles.list': ok({ rows: [roleRow(2, 'viewer'), roleRow(3, 'Help Desk')], meta: META }),
    });
    let tries = 0;
    const api = mockRest({
      'GET /auth/providers': restOk({ rows: [], meta: { ...META, total: 0 } }),
      'POST /auth/providers': () =>
        ++tries === 1
          ? problem(422, 'VALIDATION_FAILED', 'The input is invalid.', {
              issuer: ['The issuer’s discovery document could not be read.'],
            })
          : { status: 201, body: { item: { ...acme, id: 4, name: 'Staff' } } },
    });
    const { router } = renderApp('/settings/sign-in/new');

    fireEvent.change(await screen.findByLabelText(t.name), { target: { value: 'Staff' } });
    fireEvent.change(screen.getByLabelText(t.issuer), { target: { value: 'https://id.acme.test/realms/stafff' } });
    fireEvent.change(screen.getByLabelText(t.clientId), { target: { value: 'user-admin' } });
    fireEvent.change(screen.getByLabelText(t.clientSecret), { target: { value: 's3cret' } });
    fireEvent.change(screen.getByLabelText(t.domains), { target: { value: 'acme.test, staff.acme.test' } });
    fireEvent.click(screen.getByRole('switch', { name: t.createUsers }));
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Help Desk' }));
    fireEvent.click(screen.getByRole('button', { name: m.providers.save }));

    expect(await screen.findByText('The issuer’s discovery document could not be read.')).toBeTruthy();
    fireEvent.change(screen.getByLabelText(t.issuer), { target: { value: 'https://id.acme.test/realms/staff' } });
    fireEvent.click(screen.getByRole('button', { name: m.providers.save }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/settings/sign-in'));
    expect(api.bodiesOf('POST /auth/providers')[1]).toEqual({
      name: 'Staff',
      issuer: 'https://id.acme.test/realms/staff',
      client_id: 'user-admin',
      client_secret: 's3cret',
      allowed_domains: ['acme.test', 'staff.acme.test'],
      create_users: true,
      default_roles: ['Help Desk'],
    });
  });

  it('keeps the stored secret on an edit unless it is replaced', async () => {
    mockTrpc({ 'auth.me': ok(sessionOf('all')), 'roles.list': ok({ rows: [], meta: META }) });
    const api = mockRest({
      'GET /auth/providers/3': restOk({ item: acme }),
      'PUT /auth/providers/3': restOk({ item: acme }),
      'GET /auth/providers': restOk({ rows: [acme], meta: META }),
    });
    renderApp('/settings/sign-in/3');

    expect(await screen.findByText(t.clientSecretSet)).toBeTruthy();
    expect(screen.queryByLabelText(t.clientSecret)).toBeNull();
    expect(screen.getByText(acme.redirect_uri)).toBeTruthy();
    fireEvent.change(screen.getByLabelText(t.name), { target: { value: 'Acme' } });
    fireEvent.click(screen.getByRole('button', { name: m.providers.save }));
    await waitFor(() => expect(api.bodiesOf('PUT /auth/providers/3')).toHaveLength(1));
    expect(api.bodiesOf('PUT /auth/providers/3')[0]).not.toHaveProperty('client_secret');
    expect(api.bodiesOf('PUT /auth/providers/3')[0]).toMatchObject({ name: 'Acme', allowed_domains: ['acme.test'] });
  });

  it('deletes a provider after asking', async () => {
    mockTrpc({ 'auth.me': ok(sessionOf('all')) });
    const api = mockRest({
      'GET /auth/providers': restOk({ rows: [acme], meta: META }),
      'DELETE /auth/providers/3': { status: 204 },
    });
    renderApp('/settings/sign-in');

    fireEvent.click(await screen.findByRole('button', { name: `${m.providers.delete} Acme SSO` }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(m.providers.deleteDescription)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: m.providers.delete }));
    await waitFor(() => expect(api.calls.some((call) => call.route === 'DELETE /auth/providers/3')).toBe(true));
  });
});
