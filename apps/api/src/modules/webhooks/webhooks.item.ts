import type {
  Webhook as WebhookItem,
  WebhookAttempt as WebhookAttemptItem,
  WebhookDelivery as WebhookDeliveryItem,
} from '@app/contracts';
import type { Webhook, WebhookAttempt, WebhookDelivery } from '../../db/models/index.js';
import { toIso } from '../../db/sql-date.js';

type EventType = WebhookItem['events'][number];
type Status = WebhookDeliveryItem['status'];

/** The circuit as callers see it now: open until a time, half-open once that time passed, else closed. */
export function circuitOf(openUntil: Date | null, now = new Date()): WebhookItem['circuit'] {
  if (openUntil === null) return { state: 'closed', open_until: null };
  return { state: openUntil > now ? 'open' : 'half_open', open_until: openUntil.toISOString() };
}

/** An endpoint as the API shows it: never its secret. */
export function toWebhookItem(webhook: Webhook, creator: string | null): WebhookItem {
  return {
    id: webhook.id,
    url: webhook.url,
    description: webhook.description,
    events: webhook.events as EventType[],
    active: Boolean(webhook.active),
    include_personal: Boolean(webhook.include_personal),
    disabled_reason: webhook.disabled_reason ?? null,
    failing_since: toIso(webhook.failing_since ?? null),
    circuit: circuitOf(webhook.circuit_open_until ?? null),
    created_at: toIso(webhook.created_at) as string,
    updated_at: toIso(webhook.updated_at) as string,
    created_by: webhook.created_by !== null && creator !== null ? { id: webhook.created_by, name: creator } : null,
  };
}

export function toDeliveryItem(delivery: WebhookDelivery): WebhookDeliveryItem {
  return {
    id: delivery.id,
    webhook_id: delivery.webhook_id,
    event_id: delivery.event_id,
    event_type: delivery.event_type as WebhookDeliveryItem['event_type'],
    status: delivery.status as Status,
    attempts: delivery.attempts,
    created_at: toIso(delivery.created_at) as string,
    next_attempt_at: delivery.status === 'pending' ? toIso(delivery.next_attempt_at) : null,
    last_attempt_at: toIso(delivery.last_attempt_at ?? null),
    last_status_code: delivery.last_status_code ?? null,
    last_latency_ms: delivery.last_latency_ms ?? null,
    last_error: delivery.last_error ?? null,
  };
}

export function toAttemptItem(attempt: WebhookAttempt): WebhookAttemptItem {
  return {
    attempt: attempt.attempt,
    at: toIso(attempt.at) as string,
    status_code: attempt.status_code,
    latency_ms: attempt.latency_ms,
    response_excerpt: attempt.response_excerpt,
    error: attempt.error,
  };
}
