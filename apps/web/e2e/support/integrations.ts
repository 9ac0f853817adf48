import type {
  ApiTokenCreated,
  ApiTokenList,
  TokenCreateInput,
  WebhookCreated,
  WebhookDeliveryList,
  WebhookInput,
} from '@app/contracts';
import { type APIRequestContext, type Page, request } from 'playwright-core';
import { expect, inject } from 'vitest';
import { apiList, createUserViaApi, originHeader } from './app';
import { baseUrl } from './browser';

/** API calls with the page's session (an administrator's unless told otherwise). */
async function call<T>(page: Page, method: 'get' | 'post' | 'put' | 'patch' | 'delete', path: string, data?: unknown) {
  const res = await page.request[method](path, {
    ...(data === undefined ? {} : { data }),
    ...(method === 'get' ? {} : { headers: originHeader() }),
  });
  if (!res.ok()) throw new Error(`${method.toUpperCase()} ${path} → ${res.status()} ${await res.text()}`);
  return (res.status() === 204 ? null : await res.json()) as T;
}

export const apiTokens = (page: Page) => call<ApiTokenList>(page, 'get', '/api/tokens');
export const createTokenViaApi = (page: Page, input: TokenCreateInput) =>
  call<ApiTokenCreated>(page, 'post', '/api/tokens', input);
/** An endpoint as the API takes it: what has a default (include_personal: off) may be left out. */
export const createWebhookViaApi = (
  page: Page,
  input: Omit<WebhookInput, 'include_personal'> & Partial<WebhookInput>,
) => call<WebhookCreated>(page, 'post', '/api/webhooks', input);
export const apiWebhooks = (page: Page) => call<{ items: WebhookCreated['item'][] }>(page, 'get', '/api/webhooks');
export const apiDeliveries = (page: Page, webhookId: number, query = '') =>
  call<WebhookDeliveryList>(page, 'get', `/api/webhooks/${webhookId}/deliveries${query ? `?${query}` : ''}`);

/** Waits until the endpoint's log holds `count` deliveries, none of them still pending or sending. */
export async function settledDeliveries(page: Page, webhookId: number, count: number, timeout = 30_000) {
  let last: WebhookDeliveryList | undefined;
  await expect
    .poll(
      async () => {
        last = await apiDeliveries(page, webhookId, 'perPage=100');
        return last.rows.filter((d) => d.status === 'succeeded' || d.status === 'failed').length;
      },
      { timeout, interval: 250 },
    )
    .toBeGreaterThanOrEqual(count);
  return last as WebhookDeliveryList;
}

/** Runs `use` with a request context that carries only `Authorization: Bearer <token>` (no cookies). */
export async function withBearer<T>(token: string, use: (api: APIRequestContext) => Promise<T>) {
  const api = await request.newContext({ baseURL: baseUrl(), extraHTTPHeaders: { authorization: `Bearer ${token}` } });
  try {
    return await use(api);
  } finally {
    await api.dispose();
  }
}

/** The administrator's tokens the token pages show: one narrowed and used once, one with every permission. */
export const TOKEN_STORY = { used: 'Reporting dashboard', unused: 'Nightly HR sync' };

export async function ensureTokenStory(adminPage: Page): Promise<void> {
  const { items } = await apiTokens(adminPage);
  if (!items.some((token) => token.name === TOKEN_STORY.used)) {
    const { token } = await createTokenViaApi(adminPage, {
      name: TOKEN_STORY.used,
      scopes: ['users.view', 'users.export'],
      expires_at: new Date(Date.now() + 90 * 86_400_000).toISOString(),
    });
    // Used once, as a script would (no cookie), so the list shows when and from where.
    const status = await withBearer(token, (api) => api.get('/api/users?perPage=1').then((res) => res.status()));
    if (status !== 200) throw new Error(`a new token was refused: ${status}`);
  }
  if (!items.some((token) => token.name === TOKEN_STORY.unused)) {
    await createTokenViaApi(adminPage, { name: TOKEN_STORY.unused, scopes: null, expires_at: null });
  }
}

/** An endpoint with a story: a user's creation delivered, its deactivation refused twice (failed). */
export const WEBHOOK_STORY = {
  description: 'Directory sync (e2e story)',
  user: { name: 'Wanda Webhook', email: 'wanda.webhook@example.com' },
};

export async function ensureWebhookStory(adminPage: Page): Promise<{ id: number; deliveryId: number }> {
  const existing = (await apiWebhooks(adminPage)).items.find((w) => w.description === WEBHOOK_STORY.description);
  let id = existing?.id;
  if (id === undefined) {
    const receiver = inject('storyReceiverUrl');
    const needle = encodeURIComponent(WEBHOOK_STORY.user.email);
    const { item } = await createWebhookViaApi(adminPage, {
      url: `${receiver}/directory?failType=user.deactivated&failNeedle=${needle}`,
      description: WEBHOOK_STORY.description,
      events: ['user.created', 'user.deactivated'],
      active: true,
    });
    id = item.id;
    const found = await apiList(adminPage, `q=${encodeURIComponent(WEBHOOK_STORY.user.email)}`);
    const user = found.rows[0] ?? (await createUserViaApi(adminPage, WEBHOOK_STORY.user));
    await call(adminPage, 'patch', `/api/users/${user.id}/active`, { active: false });
  }
  const log = await settledDeliveries(adminPage, id, 2);
  const failed = log.rows.find((d) => d.status === 'failed' && d.event_type === 'user.deactivated');
  if (!failed) throw new Error(`the story's deactivation did not fail: ${JSON.stringify(log.rows)}`);
  return { id, deliveryId: failed.id };
}
