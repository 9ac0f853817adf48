import { pageMessages } from './messages';
import type { DeliveredEventType, DeliveryStatus } from '@app/contracts';
import { formatCount, listStrings } from './list-strings';
import { formatDate, relativeTime } from './dates';
import { secretCopyStrings } from './secret-strings';

const when = (iso: string) => formatDate(iso, 'dayTime', 'en');

/** Each event as a subscriber reads it, with what it carries. */
const EVENTS: Record<DeliveredEventType, { label: string; description: string }> = {
  'user.created': { label: 'User created', description: 'A new account, with its name, e-mail and status.' },
  'user.updated': {
    label: 'User updated',
    description: 'A change to a user, with each changed field before and after (never a password).',
  },
  'user.activated': { label: 'User activated', description: 'A user may sign in again.' },
  'user.deactivated': { label: 'User deactivated', description: 'A user was blocked from signing in.' },
  'user.deleted': { label: 'User deleted', description: 'A user moved to the trash.' },
  'user.restored': { label: 'User restored', description: 'A user came back from the trash.' },
  'user.force_deleted': { label: 'User deleted permanently', description: 'A user was removed for good.' },
  'user.invited': {
    label: 'User invited',
    description: 'A user was sent an invitation to choose a password and sign in.',
  },
  'user.password_reset': {
    label: 'Password reset',
    description: 'A user chose a new password through a reset link; their sessions and API tokens ended.',
  },
  'bulk.completed': {
    label: 'Bulk action completed',
    description: 'A summary after a bulk action, besides one event per user it changed.',
  },
  'role.created': {
    label: 'Role created',
    description: 'A role was created, with the permissions it grants.',
  },
  'role.updated': {
    label: 'Role changed',
    description: 'A role was renamed or its permissions changed: every member gains or loses them at once.',
  },
  'role.deleted': {
    label: 'Role deleted',
    description: 'A role was deleted; its members, if any, lost it.',
  },
  'attribute.created': {
    label: 'Attribute declared',
    description: 'A custom attribute was declared: a field users can now carry.',
  },
  'attribute.updated': {
    label: 'Attribute changed',
    description: 'A custom attribute’s definition changed; values it would break were cleared when asked to.',
  },
  'attribute.deleted': {
    label: 'Attribute removed',
    description: 'A custom attribute was removed, with every user’s value of it.',
  },
  'webhook.test': {
    label: 'Test event',
    description: 'Sent on request to this endpoint alone, to check the receiver.',
  },
};

const STATUSES: Record<DeliveryStatus, string> = {
  pending: 'Pending',
  sending: 'Sending',
  succeeded: 'Succeeded',
  failed: 'Failed',
};

/** The webhooks' strings: the list, the form, an endpoint's page, its delivery log and one delivery. */
export const webhooksMessages = {
  title: 'Webhooks',
  subtitle: 'Endpoints told, with signed requests, when users change.',
  add: 'Add endpoint',
  events: EVENTS,
  unknownEvent: (type: string) => type,
  eventsCount: (count: number) => (count === 1 ? '1 event' : `${formatCount(count)} events`),
  noDescription: 'No description',
  status: {
    active: 'Active',
    paused: 'Paused',
    disabled: 'Disabled',
    disabledBecause: (reason: string) => `Switched off: ${reason}`,
    failingSince: (iso: string) => `Failing since ${when(iso)}`,
    circuitOpen: 'Circuit open',
    circuitOpenUntil: (iso: string) => `Deliveries paused until ${when(iso)} after repeated failures.`,
    circuitHalfOpen: 'Trying again',
  },
  list: {
    label: 'Webhook endpoints',
    loading: 'Loading endpoints…',
    errorTitle: 'The webhooks could not be loaded',
    retry: 'Try again',
    actions: (url: string) => `Actions for ${url}`,
    open: 'Open',
    edit: 'Edit',
    delete: 'Delete',
  },
  empty: {
    title: 'No webhooks yet',
    description:
      'Add an endpoint to have another system told when a user is created, changed, deactivated or deleted. Each request is signed, so the receiver can check it came from here.',
  },
  form: {
    newTitle: 'Add a webhook endpoint',
    newSubtitle: 'Where to send events, and which ones.',
    editTitle: 'Edit webhook endpoint',
    endpointTitle: 'Endpoint',
    endpointDescription: 'The URL receives a POST for each event, signed with the endpoint’s secret.',
    url: 'URL',
    urlPlaceholder: 'https://example.com/hooks/users',
    description: 'Description',
    descriptionPlaceholder: 'HR system sync',
    eventsTitle: 'Events',
    eventsDescription: 'What this endpoint is told about.',
    events: 'Events to send',
    eventsHint: 'Pick at least one.',
    eventsAll: 'Select all',
    eventsNone: 'Clear',
    selectAll: 'Select all',
    active: 'Active',
    activeDescription: 'While paused, the endpoint is sent nothing.',
    includePersonal: 'Send personal attributes',
    includePersonalDescription:
      'Events then carry the values of attributes marked personal (a phone number, a home address). Sensitive attributes are never sent.',
    create: 'Add endpoint',
    save: 'Save changes',
    cancel: 'Cancel',
    failedTitle: 'The endpoint wasn’t saved',
    saved: 'Changes saved',
    leaveTitle: 'Discard unsaved changes?',
    leaveDescription: 'You have edits that haven’t been saved. Leaving this page throws them away.',
    leaveConfirm: 'Discard changes',
    leaveCancel: 'Keep editing',
  },
  secret: {
    ...secretCopyStrings,
    createdTitle: 'Endpoint added: copy its signing secret',
    rotatedTitle: 'Copy the new signing secret',
    description:
      'The receiver checks each request’s webhook-signature header with this secret (Standard Webhooks, HMAC-SHA256).',
    label: 'Signing secret',
    warningTitle: 'You won’t see it again',
    warning: 'Store it with the receiver now. If it is lost, rotate the secret and give the receiver the new one.',
    done: 'Done',
  },
  rotate: {
    button: 'Rotate secret',
    title: 'Rotate the signing secret?',
    description: 'A new secret is made and the old one stops signing at once: the receiver must be given the new one.',
    confirm: 'Rotate secret',
  },
  remove: {
    title: (url: string) => `Delete the endpoint ${url}?`,
    description: 'It is sent nothing more, and its delivery log is deleted with it. This can’t be undone.',
    confirm: 'Delete endpoint',
    done: 'Endpoint deleted',
  },
  show: {
    back: 'Webhooks',
    backToList: 'Back to webhooks',
    loading: 'Loading the endpoint…',
    notFoundTitle: 'Endpoint not found',
    notFoundDescription: 'This endpoint does not exist or was deleted.',
    errorTitle: 'The endpoint could not be loaded',
    detailsTitle: 'Endpoint',
    url: 'URL',
    description: 'Description',
    status: 'Status',
    events: 'Events',
    created: 'Added',
    createdBy: (name: string) => `by ${name}`,
    updated: 'Last changed',
    edit: 'Edit',
    delete: 'Delete',
    test: 'Send test event',
    testSent: 'A test event is on its way: follow it in the delivery log.',
  },
  deliveries: {
    ...listStrings({
      one: 'delivery',
      many: 'deliveries',
      label: 'Deliveries',
      search: { label: 'Find an event by its id', placeholder: 'Event id (webhook-id)…' },
      noneTitle: 'Nothing delivered yet',
      noneBody: 'Events this endpoint subscribes to appear here as they are sent.',
      noMatchBody: 'Try another status or event, or clear the filters.',
      errorTitle: 'The delivery log could not be loaded',
    }),
    title: 'Delivery log',
    description: 'Each event sent to this endpoint, newest first, with every attempt.',
    statuses: STATUSES,
    filterStatus: 'Status',
    filterEvent: 'Event',
    columns: {
      event_type: 'Event',
      event_id: 'Event id',
      status: 'Status',
      attempts: 'Attempts',
      last_status_code: 'Response',
      last_latency_ms: 'Latency',
      created_at: 'Time',
    },
    latency: (ms: number) => `${formatCount(ms)} ms`,
    none: '—',
    open: (id: string) => `Open delivery of ${id}`,
  },
  delivery: {
    back: 'Delivery log',
    title: (type: string) => type,
    loading: 'Loading the delivery…',
    notFoundTitle: 'Delivery not found',
    notFoundDescription: 'This delivery does not exist, or belongs to another endpoint.',
    errorTitle: 'The delivery could not be loaded',
    detailsTitle: 'Delivery',
    eventId: 'Event id (webhook-id)',
    status: 'Status',
    attempts: 'Attempts',
    created: 'Queued',
    nextAttempt: 'Next attempt',
    nextAttemptIn: (iso: string) => relativeTime(iso, 'en'),
    lastError: 'Last error',
    payloadTitle: 'Payload',
    payloadDescription: 'The JSON body sent with every attempt.',
    attemptsTitle: 'Attempts',
    attemptsDescription: 'Each try to deliver this event, newest last.',
    noAttempts: 'Not attempted yet.',
    attempt: (n: number) => `Attempt ${n}`,
    statusCode: 'Status code',
    noResponse: 'No response',
    latency: 'Latency',
    response: 'Response (first KB)',
    error: 'Error',
    redeliver: 'Redeliver',
    redelivered: 'The event is queued to be sent again',
  },
};

/** The webhooks pages' words (`m.webhooks`) with the shell's. */
export const useWebhooksMessages = pageMessages({ webhooks: webhooksMessages });
export type WebhooksPageMessages = ReturnType<typeof useWebhooksMessages>;
