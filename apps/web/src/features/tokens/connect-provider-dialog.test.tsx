import { PERMISSIONS, type Permission } from '@app/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { en } from '../../i18n/en';
import { apiToken } from '../../test/integration-fixtures';
import { renderApp } from '../../test/render-app';
import { mockTrpc, ok, sessionOf } from '../../test/trpc-mock';
import { PROVISIONING_SCOPES } from './scim-provisioning';

const t = en.tokens.provisioning;
const form = en.tokens.form;
const SECRET = 'uat_7_9f8e7d6c5b4a39281706f5e4d3c2b1a0';
const label = (permission: Permission) => en.permissions.names[permission]?.label ?? permission;

function stubClipboard() {
  const writeText = vi.fn(async (_text: string) => undefined);
  Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
  return writeText;
}
afterEach(() => {
  Reflect.deleteProperty(navigator, 'clipboard');
});

function mockApi(granted: readonly Permission[] | 'all', offered: readonly Permission[]) {
  return mockTrpc({
    'auth.me': ok(sessionOf(granted)),
    'tokens.list': ok({ items: [] }),
    'tokens.options': ok({ scopes: offered }),
    'tokens.create': (input) => ok({ item: apiToken({ name: (input as { name: string }).name }), token: SECRET }),
  });
}

/** The ticked boxes' labels, in the form's order (one query: a role query per box is slow in jsdom). */
const ticked = (scopes: HTMLElement) =>
  within(scopes)
    .getAllByRole('checkbox', { checked: true })
    .map((box) => document.querySelector(`label[for="${box.id}"]`)?.textContent);

async function openDialog() {
  fireEvent.click(await screen.findByRole('button', { name: t.open }));
  // The form opens once the scopes the viewer holds are known (a dialog of its own after "Loading…").
  await screen.findByLabelText(form.name);
  return screen.getByRole('dialog', { name: t.form.title });
}

describe('connecting an identity provider from the tokens page', () => {
  it('pre-fills a token named for provisioning with exactly the provisioning scopes, and sends them', async () => {
    const api = mockApi('all', PERMISSIONS);
    renderApp('/account/tokens');

    const dialog = await openDialog();
    expect((within(dialog).getByLabelText(form.name) as HTMLInputElement).value).toBe(t.form.defaultName);
    expect(within(dialog).getByRole('switch', { name: form.narrow }).getAttribute('aria-checked')).toBe('true');
    const scopes = within(dialog).getByRole('group', { name: form.scopes });
    expect(within(scopes).getAllByRole('checkbox')).toHaveLength(PERMISSIONS.length);
    expect(ticked(scopes)).toEqual(
      PERMISSIONS.filter((p) => (PROVISIONING_SCOPES as readonly string[]).includes(p)).map(label),
    );
    expect(within(dialog).queryByText(t.form.missingTitle)).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: form.submit }));

    await screen.findByRole('dialog', { name: t.connect.title });
    const [sent] = api.callsTo('tokens.create') as [{ name: string; scopes: string[]; expires_at: string }];
    expect(sent.name).toBe('SCIM provisioning');
    expect(sent.scopes).toEqual(PERMISSIONS.filter((p) => (PROVISIONING_SCOPES as readonly string[]).includes(p)));
    // The token form's own expiry choice, 90 days unless changed.
    expect(Date.parse(sent.expires_at) - Date.now()).toBeGreaterThan(89 * 86_400_000);
  });

  it('pre-selects only the provisioning scopes the administrator holds, and names the ones the provider will lack', async () => {
    const held: Permission[] = ['users.view', 'users.update', 'users.setActive', 'roles.view', 'audit.view'];
    const api = mockApi(held, held);
    renderApp('/account/tokens');

    const dialog = await openDialog();
    const scopes = within(dialog).getByRole('group', { name: form.scopes });
    // What the token form offers: the scopes held, nothing else; of those, the provisioning ones ticked.
    expect(within(scopes).getAllByRole('checkbox')).toHaveLength(held.length);
    expect(ticked(scopes)).toEqual(
      ['users.view', 'users.update', 'users.setActive', 'roles.view'].map((p) => label(p as Permission)),
    );
    const missing = within(dialog).getByText(t.form.missingTitle).closest('div')?.parentElement as HTMLElement;
    expect(
      within(missing)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(
      ['users.create', 'users.delete', 'roles.create', 'roles.update', 'roles.delete'].map((p) =>
        label(p as Permission),
      ),
    );
    fireEvent.click(within(dialog).getByRole('button', { name: form.submit }));

    await screen.findByRole('dialog', { name: t.connect.title });
    expect(api.callsTo('tokens.create')).toMatchObject([
      { scopes: ['users.view', 'users.update', 'users.setActive', 'roles.view'] },
    ]);
  });

  it('shows the SCIM base URL and the token once, each with a copy button, the steps, and the audit view', async () => {
    const writeText = stubClipboard();
    mockApi('all', PERMISSIONS);
    renderApp('/account/tokens');

    fireEvent.click(within(await openDialog()).getByRole('button', { name: form.submit }));
    const dialog = await screen.findByRole('dialog', { name: t.connect.title });
    const url = `${window.location.origin}/api/scim/v2`;
    expect(within(dialog).getByRole('group', { name: t.connect.urlLabel }).querySelector('code')?.textContent).toBe(
      url,
    );
    expect((within(dialog).getByLabelText(t.connect.token.label) as HTMLInputElement).value).toBe(SECRET);
    expect(within(dialog).getByText(t.connect.token.warningTitle)).toBeTruthy();
    expect(within(dialog).getByRole('heading', { name: t.connect.okta.title })).toBeTruthy();
    expect(within(dialog).getByRole('heading', { name: t.connect.entra.title })).toBeTruthy();
    expect(within(dialog).getByText(t.connect.okta.steps[1] as string)).toBeTruthy();

    fireEvent.click(within(dialog).getByRole('button', { name: `${t.connect.url.copy} ${t.connect.urlLabel}` }));
    await waitFor(() => expect(writeText).toHaveBeenLastCalledWith(url));
    fireEvent.click(within(dialog).getByRole('button', { name: t.connect.token.copy }));
    await waitFor(() => expect(writeText).toHaveBeenLastCalledWith(SECRET));
    const audit = within(dialog).getByRole('link', { name: `${t.connect.audit} ${t.connect.newTab}` });
    expect(audit.getAttribute('href')).toBe('/audit?filters[via]=scim');

    fireEvent.click(within(dialog).getByRole('button', { name: t.connect.done }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.body.textContent).not.toContain(SECRET);
    // Opening it again starts a new token: the old one is gone for good.
    expect(within(await openDialog()).queryByDisplayValue(SECRET)).toBeNull();
  });

  it('leaves the audit link out for an administrator who cannot read the audit log', async () => {
    mockApi(PROVISIONING_SCOPES, PROVISIONING_SCOPES);
    renderApp('/account/tokens');

    fireEvent.click(within(await openDialog()).getByRole('button', { name: form.submit }));
    const dialog = await screen.findByRole('dialog', { name: t.connect.title });
    expect(within(dialog).queryByRole('link')).toBeNull();
  });

  it('is not offered to someone who could provision nothing', async () => {
    mockApi(['audit.view'], ['audit.view']);
    renderApp('/account/tokens');

    expect(await screen.findByText(en.tokens.empty.title)).toBeTruthy();
    expect(screen.queryByRole('button', { name: t.open })).toBeNull();
  });
});
