import { WEBHOOK_EVENTS } from '@app/contracts';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { en } from '../../i18n/en';
import { webhook } from '../../test/integration-fixtures';
import { renderApp } from '../../test/render-app';
import { fail, mockTrpc, ok, sessionOf } from '../../test/trpc-mock';

const t = en.webhooks;
const f = t.form;
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';

const eventBox = (type: keyof typeof t.events) =>
  screen.getByRole('checkbox', { name: `${t.events[type].label} ${type}` });

describe('webhook form', () => {
  it('refuses a bad URL and no events before sending, in the contract’s words', async () => {
    const api = mockTrpc({ 'auth.me': ok(sessionOf(['webhooks.manage'])) });
    renderApp('/webhooks/new');

    fireEvent.change(await screen.findByLabelText(f.url), { target: { value: 'ftp://example.com/hook' } });
    fireEvent.click(screen.getByRole('button', { name: f.create }));

    expect(await screen.findByText('The URL must start with https:// or http://.')).toBeTruthy();
    expect(screen.getByText('Pick at least one event.')).toBeTruthy();
    expect(screen.getByLabelText(f.url).getAttribute('aria-invalid')).toBe('true');
    expect(api.callsTo('webhooks.create')).toEqual([]);
  });

  it('puts the server’s field errors next to their fields', async () => {
    const message = 'This address is on a private network; deliveries there are refused.';
    mockTrpc({
      'auth.me': ok(sessionOf(['webhooks.manage'])),
      'webhooks.create': fail({
        message: 'The input is not valid.',
        code: 'VALIDATION_FAILED',
        httpStatus: 422,
        errors: { url: [message] },
      }),
    });
    renderApp('/webhooks/new');

    fireEvent.change(await screen.findByLabelText(f.url), { target: { value: 'http://10.0.0.5/hook' } });
    fireEvent.click(eventBox('user.created'));
    fireEvent.click(screen.getByRole('button', { name: f.create }));

    const url = screen.getByLabelText(f.url);
    await waitFor(() => expect(url.getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getByText(message)).toBeTruthy();
    expect(document.activeElement).toBe(url);
  });

  it('adds an endpoint, shows its signing secret once, then opens its page', async () => {
    const api = mockTrpc({
      'auth.me': ok(sessionOf(['webhooks.manage'])),
      'webhooks.create': ok({ item: webhook({ id: 8 }), secret: SECRET }),
      'webhooks.list': ok({ items: [] }),
      'webhooks.show': 'pending',
      'webhooks.deliveries': 'pending',
    });
    const { router } = renderApp('/webhooks/new');

    fireEvent.change(await screen.findByLabelText(f.url), { target: { value: 'https://hooks.example.com/users' } });
    fireEvent.change(screen.getByLabelText(f.description), { target: { value: 'HR system' } });
    fireEvent.click(eventBox('user.updated'));
    fireEvent.click(eventBox('user.created'));
    fireEvent.click(screen.getByRole('switch', { name: f.active }));
    fireEvent.click(screen.getByRole('switch', { name: f.includePersonal }));
    fireEvent.click(screen.getByRole('button', { name: f.create }));

    const dialog = await screen.findByRole('dialog', { name: t.secret.createdTitle });
    expect(within(dialog).getByDisplayValue(SECRET)).toBeTruthy();
    expect(within(dialog).getByText(t.secret.warningTitle)).toBeTruthy();
    // The events go in the catalogue's order, whatever order they were ticked in.
    expect(api.callsTo('webhooks.create')).toEqual([
      {
        url: 'https://hooks.example.com/users',
        description: 'HR system',
        events: ['user.created', 'user.updated'],
        active: false,
        include_personal: true,
      },
    ]);
    fireEvent.click(within(dialog).getByRole('button', { name: t.secret.done }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/webhooks/8'));
    expect(screen.queryByDisplayValue(SECRET)).toBeNull();
  });

  it('ticks every event at once, and clears them again', async () => {
    const api = mockTrpc({
      'auth.me': ok(sessionOf(['webhooks.manage'])),
      'webhooks.create': ok({ item: webhook({ id: 8 }), secret: SECRET }),
    });
    renderApp('/webhooks/new');

    fireEvent.change(await screen.findByLabelText(f.url), { target: { value: 'https://hooks.example.com/all' } });
    fireEvent.click(eventBox('user.deleted'));
    fireEvent.click(screen.getByRole('button', { name: f.eventsAll }));
    for (const type of WEBHOOK_EVENTS) expect(eventBox(type).getAttribute('aria-checked')).toBe('true');
    fireEvent.click(screen.getByRole('button', { name: f.eventsNone }));
    for (const type of WEBHOOK_EVENTS) expect(eventBox(type).getAttribute('aria-checked')).toBe('false');
    fireEvent.click(screen.getByRole('button', { name: f.eventsAll }));
    fireEvent.click(screen.getByRole('button', { name: f.create }));

    await screen.findByRole('dialog', { name: t.secret.createdTitle });
    expect(api.callsTo('webhooks.create')).toEqual([
      {
        url: 'https://hooks.example.com/all',
        description: '',
        events: [...WEBHOOK_EVENTS],
        active: true,
        include_personal: false,
      },
    ]);
  });

  it('edits an endpoint from its current settings', async () => {
    const api = mockTrpc({
      'auth.me': ok(sessionOf(['webhooks.manage'])),
      'webhooks.show': ok({ item: webhook({ id: 3, events: ['user.deleted'] }) }),
      'webhooks.update': ok({ item: webhook({ id: 3 }) }),
      'webhooks.deliveries': 'pending',
    });
    const { router } = renderApp('/webhooks/3/edit');

    const url = (await screen.findByLabelText(f.url)) as HTMLInputElement;
    await waitFor(() => expect(url.value).toBe('https://hooks.example.com/users'));
    expect(eventBox('user.deleted').getAttribute('aria-checked')).toBe('true');
    fireEvent.change(url, { target: { value: 'https://hooks.example.com/v2' } });
    fireEvent.click(screen.getByRole('button', { name: f.save }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/webhooks/3'));
    expect(api.callsTo('webhooks.update')).toEqual([
      {
        id: 3,
        url: 'https://hooks.example.com/v2',
        description: 'HR system',
        events: ['user.deleted'],
        active: true,
        include_personal: false,
      },
    ]);
  });
});
