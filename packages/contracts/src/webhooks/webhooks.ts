import { z } from 'zod';
import { IdSchema, IsoDateTimeSchema, NamedRefSchema } from '../common';
import { listResultSchema } from '../lists';
import { defineListQuery, type ListQueryOf } from '../query/define-list-query';
import { oneOrMany } from '../query/filters';
import { integer, numeric } from '../query/fields';
import { constrainInput } from '../json-schema';
import { plainText } from '../text';
import { WebhookUrlSchema } from './webhook-url';

/** Every event a webhook can subscribe to. Names follow the product's past tense; added, never renamed. */
export const WEBHOOK_EVENTS = [
  'user.created',
  'user.updated',
  'user.activated',
  'user.deactivated',
  'user.deleted',
  'user.restored',
  'user.force_deleted',
  'user.invited',
  'user.password_reset',
  'bulk.completed',
  'role.created',
  'role.updated',
  'role.deleted',
  'attribute.created',
  'attribute.updated',
  'attribute.deleted',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];
export const WebhookEventTypeSchema = z.enum(WEBHOOK_EVENTS, {
  error: `Unknown event. Events are: ${WEBHOOK_EVENTS.join(', ')}.`,
});

/**
 * Sent only when someone asks (`POST /webhooks/{id}/test`), to that one endpoint, whatever it
 * subscribes to: so it is a type deliveries carry, never one to subscribe to.
 */
export const TEST_EVENT_TYPE = 'webhook.test';
/** Every type a delivery can carry: the subscribable events and the test event. */
export const DELIVERED_EVENT_TYPES = [...WEBHOOK_EVENTS, TEST_EVENT_TYPE] as const;
export type DeliveredEventType = (typeof DELIVERED_EVENT_TYPES)[number];
const DeliveredEventTypeSchema = z.enum(DELIVERED_EVENT_TYPES, {
  error: `Unknown event. Events are: ${DELIVERED_EVENT_TYPES.join(', ')}.`,
});

/** At most this many endpoints: each change is fanned out to every subscriber in its transaction. */
export const WEBHOOKS_MAX = 50;

export const WebhookInputSchema = z.object({
  url: WebhookUrlSchema,
  description: plainText('description').max(200, 'The description can be at most 200 characters long.').default(''),
  events: constrainInput(
    z
      .array(WebhookEventTypeSchema, { error: 'Pick at least one event.' })
      .min(1, 'Pick at least one event.')
      .max(WEBHOOK_EVENTS.length)
      .refine((list) => new Set(list).size === list.length, 'Each event can be listed once.'),
    { uniqueItems: true },
  ),
  active: z.boolean().default(true),
  /** Send the values of `personal` custom attributes in events (left out unless this is on). */
  include_personal: z.boolean({ error: 'include_personal must be true or false.' }).default(false),
});
export type WebhookInput = z.infer<typeof WebhookInputSchema>;

export const CIRCUIT_STATES = ['closed', 'open', 'half_open'] as const;

export const WebhookSchema = z.object({
  id: IdSchema,
  url: z.string(),
  description: z.string(),
  events: z.array(WebhookEventTypeSchema),
  active: z.boolean(),
  /** Whether events carry the values of `personal` custom attributes. Sensitive ones never leave. */
  include_personal: z.boolean(),
  /** Why the dispatcher switched it off (failing for too long), or null. */
  disabled_reason: z.string().nullable(),
  /** Since when every attempt has failed, or null while it succeeds. */
  failing_since: IsoDateTimeSchema.nullable(),
  circuit: z.object({ state: z.enum(CIRCUIT_STATES), open_until: IsoDateTimeSchema.nullable() }),
  created_at: IsoDateTimeSchema,
  updated_at: IsoDateTimeSchema,
  created_by: NamedRefSchema.nullable(),
});
export type Webhook = z.infer<typeof WebhookSchema>;

export const WebhookListSchema = z.object({ items: z.array(WebhookSchema) });
/** Create and rotate: the signing secret (`whsec_…`), shown this once. */
export const WebhookCreatedSchema = z.object({ item: WebhookSchema, secret: z.string() });
export type WebhookCreated = z.infer<typeof WebhookCreatedSchema>;

export const DELIVERY_STATUSES = ['pending', 'sending', 'succeeded', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** One event's delivery to one endpoint, as the delivery log lists it. */
export const WebhookDeliverySchema = z.object({
  id: IdSchema,
  webhook_id: IdSchema,
  /** The Standard Webhooks `webhook-id`: the same on every attempt and redelivery. */
  event_id: z.string(),
  event_type: DeliveredEventTypeSchema,
  status: z.enum(DELIVERY_STATUSES),
  attempts: z.number().int().nonnegative(),
  created_at: IsoDateTimeSchema,
  next_attempt_at: IsoDateTimeSchema.nullable(),
  last_attempt_at: IsoDateTimeSchema.nullable(),
  last_status_code: z.number().int().nullable(),
  last_latency_ms: z.number().int().nullable(),
  last_error: z.string().nullable(),
});
export type WebhookDelivery = z.infer<typeof WebhookDeliverySchema>;

export const WebhookAttemptSchema = z.object({
  attempt: z.number().int().positive(),
  at: IsoDateTimeSchema,
  status_code: z.number().int().nullable(),
  latency_ms: z.number().int().nonnegative(),
  /** The first KB of the response body, as text. */
  response_excerpt: z.string().nullable(),
  error: z.string().nullable(),
});
export type WebhookAttempt = z.infer<typeof WebhookAttemptSchema>;

export const WebhookDeliveryDetailSchema = z.object({
  item: WebhookDeliverySchema.extend({ payload: z.json(), attempts_log: z.array(WebhookAttemptSchema) }),
});
export type WebhookDeliveryDetail = z.infer<typeof WebhookDeliveryDetailSchema>;

/** `{deliveryId}` of a delivery's path, beside the webhook's `{id}` (IdInputSchema). */
export const DeliveryIdInputSchema = z.object({
  deliveryId: numeric(integer('The delivery id must be a whole number of 1 or more.', { min: 1 })),
});

/**
 * GET /webhooks/{id}/deliveries: one endpoint's delivery log, newest first, by status and event.
 * `q` finds an event by its id (the `webhook-id` a receiver logged).
 */
export const webhookDeliveriesListQuery = defineListQuery({
  search: ['event_id'],
  filters: {
    status: oneOrMany(z.enum(DELIVERY_STATUSES, { error: 'Unknown status.' }), { max: DELIVERY_STATUSES.length }),
    event_type: oneOrMany(DeliveredEventTypeSchema, { max: DELIVERED_EVENT_TYPES.length }),
  },
  sorts: ['id'],
  defaultOrder: ['id', 'desc'],
  perPage: { default: 25, max: 100, choices: [25, 50, 100] },
});
export type WebhookDeliveriesListQuery = ListQueryOf<typeof webhookDeliveriesListQuery>;

/** The delivery log answers like every list: `{rows, meta}` (it answered `items` before; see docs/webhooks.md). */
export const WebhookDeliveryListSchema = listResultSchema(WebhookDeliverySchema);
export type WebhookDeliveryList = z.infer<typeof WebhookDeliveryListSchema>;
