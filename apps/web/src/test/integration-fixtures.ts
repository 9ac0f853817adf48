import type {
  ApiToken,
  AuditRow,
  SessionInfo,
  Webhook,
  WebhookDelivery,
  WebhookDeliveryDetail,
  WebhookDeliveryList,
} from '@app/contracts';
import { ok } from './trpc-mock';

/** Fixtures for API tokens, sessions, sign-ins and webhooks; override what the test is about. */

export const CHROME_LINUX =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';
export const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
export const FIREFOX_WINDOWS = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:128.0) Gecko/20100101 Firefox/128.0';

export function apiToken(overrides: Partial<ApiToken> = {}): ApiToken {
  return {
    id: 7,
    name: 'HR sync',
    scopes: null,
    created_at: '2026-10-01T09:00:00.000Z',
    expires_at: null,
    expired: false,
    last_used_at: null,
    last_used_ip: null,
    created_by: { id: 1, name: 'Ada Admin' },
    ...overrides,
  };
}

export function sessionInfo(overrides: Partial<SessionInfo> = {}): SessionInfo {
  return {
    id: 'sess_current',
    user_agent: CHROME_LINUX,
    ip: '203.0.113.5',
    created_at: '2026-11-01T08:00:00.000Z',
    last_seen_at: new Date(Date.now() - 5 * 60_000).toISOString(),
    expires_at: '2026-12-01T08:00:00.000Z',
    current: false,
    ...overrides,
  };
}

export function signInRow(overrides: Partial<AuditRow> = {}): AuditRow {
  return {
    id: 1,
    occurred_at: '2026-11-20T10:00:00.000Z',
    actor_id: 42,
    actor_name: 'Ann Lee',
    action: 'auth.login',
    target_type: 'user',
    target_ids: [42],
    target_count: 1,
    target_names: { '42': 'Ann Lee' },
    target_jobs: {},
    changes: {},
    hidden_changes: [],
    ip: '198.51.100.7',
    via: { kind: 'session', name: null },
    request_id: 'req-1',
    user_agent: CHROME_LINUX,
    ...overrides,
  };
}

export function webhook(overrides: Partial<Webhook> = {}): Webhook {
  return {
    id: 3,
    url: 'https://hooks.example.com/users',
    description: 'HR system',
    events: ['user.created', 'user.updated'],
    active: true,
    disabled_reason: null,
    failing_since: null,
    include_personal: false,
    circuit: { state: 'closed', open_until: null },
    created_at: '2026-11-01T08:00:00.000Z',
    updated_at: '2026-11-02T08:00:00.000Z',
    created_by: { id: 1, name: 'Ada Admin' },
    ...overrides,
  };
}

export function delivery(overrides: Partial<WebhookDelivery> = {}): WebhookDelivery {
  return {
    id: 11,
    webhook_id: 3,
    event_id: 'msg_2KWPBgLlAfxdpx2AI54pPJ85f4W',
    event_type: 'user.created',
    status: 'succeeded',
    attempts: 1,
    created_at: '2026-11-20T10:00:00.000Z',
    next_attempt_at: null,
    last_attempt_at: '2026-11-20T10:00:01.000Z',
    last_status_code: 200,
    last_latency_ms: 84,
    last_error: null,
    ...overrides,
  };
}

export function deliveryPage(items: WebhookDelivery[], total = items.length, perPage = 25): WebhookDeliveryList {
  return { rows: items, meta: { page: 1, perPage, total, totalExact: true, pageCount: Math.ceil(total / perPage) } };
}

export function deliveryDetail(overrides: Partial<WebhookDeliveryDetail['item']> = {}): WebhookDeliveryDetail {
  return {
    item: {
      ...delivery({ status: 'failed', attempts: 2, last_status_code: 500, last_error: 'HTTP 500' }),
      payload: { type: 'user.created', timestamp: '2026-11-20T10:00:00.000Z', data: { id: 42, name: 'Ann Lee' } },
      attempts_log: [
        {
          attempt: 1,
          at: '2026-11-20T10:00:01.000Z',
          status_code: null,
          latency_ms: 10_000,
          response_excerpt: null,
          error: 'Timed out after 10 s',
        },
        {
          attempt: 2,
          at: '2026-11-20T10:00:31.000Z',
          status_code: 500,
          latency_ms: 35,
          response_excerpt: 'Internal Server Error',
          error: null,
        },
      ],
      ...overrides,
    },
  };
}

/**
 * The user page's Sessions and API tokens sections, empty: for tests of that page about something
 * else, as an administrator who would see them. (Not held pending: a pending answer holds up every
 * query batched with it.)
 */
export const NO_SECURITY_ANSWERS = {
  'sessions.listFor': ok({ items: [] }),
  'tokens.listFor': ok({ items: [] }),
};

/**
 * A user's History with no events. A page test answers it rather than leaving it pending: tRPC
 * batches the page's queries, and a pending one would hold its batch-mates (the user's access)
 * and every refetch of them for ever.
 */
export const NO_HISTORY = {
  'audit.list': ok({ rows: [], meta: { page: 1, perPage: 10, total: 0, totalExact: true, pageCount: 0 }, filters: {} }),
};
