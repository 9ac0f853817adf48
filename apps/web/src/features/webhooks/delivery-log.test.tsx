import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { en } from '../../i18n/en';
import { delivery, deliveryDetail, deliveryPage, webhook } from '../../test/integration-fixtures';
import { renderApp } from '../../test/render-app';
import { mockTrpc, ok, sessionOf } from '../../test/trpc-mock';

const t = en.webhooks;
const d = t.deliveries;

const ROWS = [
  delivery({ id: 12, event_type: 'user.updated', status: 'failed', attempts: 3, last_status_code: 500 }),
  delivery({ id: 11, event_type: 'user.created', status: 'succeeded', last_latency_ms: 84 }),
];

function endpointPage(extra: Record<string, Parameters<typeof mockTrpc>[0][string]> = {}) {
  return mockTrpc({
    'auth.me': ok(sessionOf(['webhooks.manage'])),
    'webhooks.show': ok({ item: webhook({ id: 3 }) }),
    'webhooks.deliveries': ok(deliveryPage(ROWS, 60)),
    ...extra,
  });
}

const search = (router: { state: { location: { search: string } } }) =>
  new URLSearchParams(router.state.location.search);

afterEach(() => {
  Reflect.deleteProperty(navigator, 'clipboard');
});

describe('an endpoint’s page and its delivery log', () => {
  it('shows the endpoint and its deliveries: event, status, attempts, response, latency', async () => {
    const api = endpointPage();
    renderApp('/webhooks/3');

    expect(await screen.findByRole('heading', { level: 1, name: 'https://hooks.example.com/users' })).toBeTruthy();
    const table = await screen.findByRole('table', { name: d.table.label });
    const rows = await within(table).findAllByRole('row');
    const failed = rows[1] as HTMLElement;
    expect(within(failed).getByText(t.events['user.updated'].label)).toBeTruthy();
    expect(within(failed).getByText(d.statuses.failed)).toBeTruthy();
    expect(within(failed).getByText('500')).toBeTruthy();
    expect(within(failed).getByText('3')).toBeTruthy();
    expect(within(failed).getByRole('link').getAttribute('href')).toBe('/webhooks/3/deliveries/12');
    expect(within(rows[2] as HTMLElement).getByText(d.latency(84))).toBeTruthy();
    expect(api.callsTo('webhooks.deliveries')[0]).toEqual({ id: 3, page: 1, perPage: 25, filters: {} });
  });

  it('filters by status and event with chips, kept in the URL', async () => {
    const api = endpointPage();
    const { router } = renderApp('/webhooks/3');

    const status = await screen.findByRole('group', { name: d.filterStatus });
    fireEvent.click(within(status).getByRole('button', { name: d.statuses.failed }));
    await waitFor(() => expect(search(router).getAll('filters[status][]')).toEqual(['failed']));
    expect(within(status).getByRole('button', { name: d.statuses.failed }).getAttribute('aria-pressed')).toBe('true');
    const events = screen.getByRole('group', { name: d.filterEvent });
    fireEvent.click(within(events).getByRole('button', { name: t.events['user.deleted'].label }));
    await waitFor(() => expect(search(router).getAll('filters[event_type][]')).toEqual(['user.deleted']));
    await waitFor(() =>
      expect(api.callsTo('webhooks.deliveries')).toContainEqual({
        id: 3,
        page: 1,
        perPage: 25,
        filters: { status: ['failed'], event_type: ['user.deleted'] },
      }),
    );

    // Pressing a chip again lifts that filter.
    fireEvent.click(within(status).getByRole('button', { name: d.statuses.failed }));
    await waitFor(() => expect(search(router).getAll('filters[status][]')).toEqual([]));
    expect(search(router).getAll('filters[event_type][]')).toEqual(['user.deleted']);
  });

  it('opens with the filters and page a link carries, and pages on', async () => {
    const api = endpointPage();
    const { router } = renderApp('/webhooks/3?filters[status][]=failed&filters[status][]=pending&page=2');

    const status = await screen.findByRole('group', { name: d.filterStatus });
    expect(within(status).getByRole('button', { name: d.statuses.failed }).getAttribute('aria-pressed')).toBe('true');
    expect(within(status).getByRole('button', { name: d.statuses.pending }).getAttribute('aria-pressed')).toBe('true');
    expect(within(status).getByRole('button', { name: d.statuses.succeeded }).getAttribute('aria-pressed')).toBe(
      'false',
    );
    await waitFor(() =>
      expect(api.callsTo('webhooks.deliveries')[0]).toEqual({
        id: 3,
        page: 2,
        perPage: 25,
        filters: { status: ['failed', 'pending'] },
      }),
    );
    fireEvent.click(await screen.findByRole('button', { name: d.pagination.next }));
    await waitFor(() => expect(search(router).get('page')).toBe('3'));
  });

  it('offers to clear the filters when nothing matches', async () => {
    const api = endpointPage({ 'webhooks.deliveries': ok(deliveryPage([], 0)) });
    const { router } = renderApp('/webhooks/3?filters[status][]=sending');

    fireEvent.click(await screen.findByRole('button', { name: d.empty.clearFilters }));
    await waitFor(() => expect(router.state.location.search).toBe(''));
    expect(api.callsTo('webhooks.deliveries').length).toBeGreaterThan(1);
  });

  it('sends a test event on request and shows it in the log', async () => {
    const queued = delivery({ id: 13, event_type: 'webhook.test', status: 'pending', attempts: 0 });
    const api = endpointPage({ 'webhooks.test': ok({ item: queued }) });
    renderApp('/webhooks/3');

    await screen.findByRole('table', { name: d.table.label });
    api.set('webhooks.deliveries', ok(deliveryPage([queued, ...ROWS], 61)));
    fireEvent.click(screen.getByRole('button', { name: t.show.test }));

    expect(await screen.findByText(t.show.testSent)).toBeTruthy();
    expect(api.callsTo('webhooks.test')).toEqual([{ id: 3 }]);
    const table = screen.getByRole('table', { name: d.table.label });
    expect(await within(table).findByText(t.events['webhook.test'].label)).toBeTruthy();
  });

  it('rotates the secret after a question and shows the new one once', async () => {
    const writeText = vi.fn(async (_text: string) => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const api = endpointPage({ 'webhooks.rotateSecret': ok({ item: webhook({ id: 3 }), secret: 'whsec_new' }) });
    renderApp('/webhooks/3');

    fireEvent.click(await screen.findByRole('button', { name: t.rotate.button }));
    const confirm = await screen.findByRole('dialog', { name: t.rotate.title });
    fireEvent.click(within(confirm).getByRole('button', { name: t.rotate.confirm }));
    const dialog = await screen.findByRole('dialog', { name: t.secret.rotatedTitle });
    fireEvent.click(within(dialog).getByRole('button', { name: t.secret.copy }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('whsec_new'));
    expect(api.callsTo('webhooks.rotateSecret')).toEqual([{ id: 3 }]);
    fireEvent.click(within(dialog).getByRole('button', { name: t.secret.done }));
    await waitFor(() => expect(screen.queryByDisplayValue('whsec_new')).toBeNull());
  });

  it('deletes the endpoint after a question and returns to the list', async () => {
    const api = endpointPage({ 'webhooks.delete': ok(null), 'webhooks.list': ok({ items: [] }) });
    const { router } = renderApp('/webhooks/3');

    fireEvent.click(await screen.findByRole('button', { name: t.show.delete }));
    const dialog = await screen.findByRole('dialog', { name: t.remove.title('https://hooks.example.com/users') });
    fireEvent.click(within(dialog).getByRole('button', { name: t.remove.confirm }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/webhooks'));
    expect(api.callsTo('webhooks.delete')).toEqual([{ id: 3 }]);
  });
});

describe('one delivery', () => {
  it('shows the payload as JSON and every attempt with its outcome', async () => {
    mockTrpc({ 'auth.me': ok(sessionOf(['webhooks.manage'])), 'webhooks.delivery': ok(deliveryDetail()) });
    renderApp('/webhooks/3/deliveries/11');

    expect(await screen.findByRole('heading', { level: 1, name: t.events['user.created'].label })).toBeTruthy();
    const payload = screen.getByRole('region', { name: t.delivery.payloadTitle });
    expect(within(payload).getByText(/"name": "Ann Lee"/)).toBeTruthy();
    const attempts = screen.getByRole('region', { name: t.delivery.attemptsTitle });
    const [first, second] = within(attempts).getAllByRole('listitem') as [HTMLElement, HTMLElement];
    expect(within(first).getByText(t.delivery.noResponse)).toBeTruthy();
    expect(within(first).getByText('Timed out after 10 s')).toBeTruthy();
    expect(within(first).getByText(d.latency(10_000))).toBeTruthy();
    expect(within(second).getByText('500')).toBeTruthy();
    expect(within(second).getByText('Internal Server Error')).toBeTruthy();
  });

  it('redelivers on request', async () => {
    const api = mockTrpc({
      'auth.me': ok(sessionOf(['webhooks.manage'])),
      'webhooks.delivery': ok(deliveryDetail()),
      'webhooks.redeliver': ok({ item: delivery({ id: 11, status: 'pending' }) }),
    });
    renderApp('/webhooks/3/deliveries/11');

    fireEvent.click(await screen.findByRole('button', { name: t.delivery.redeliver }));
    await waitFor(() => expect(api.callsTo('webhooks.redeliver')).toEqual([{ id: 3, deliveryId: 11 }]));
    expect(await screen.findByText(t.delivery.redelivered)).toBeTruthy();
    // The delivery is asked again, to show its new state.
    await waitFor(() => expect(api.callsTo('webhooks.delivery').length).toBeGreaterThan(1));
  });

  it('says so when the delivery does not exist', async () => {
    mockTrpc({
      'auth.me': ok(sessionOf(['webhooks.manage'])),
      'webhooks.delivery': { error: { message: 'Not found.', code: 'NOT_FOUND', httpStatus: 404 } },
    });
    renderApp('/webhooks/3/deliveries/999');
    expect(await screen.findByText(t.delivery.notFoundTitle)).toBeTruthy();
    for (const link of screen.getAllByRole('link', { name: t.delivery.back })) {
      expect(link.getAttribute('href')).toBe('/webhooks/3');
    }
  });
});
