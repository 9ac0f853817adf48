import type { Webhook } from '@app/contracts';
import { Badge, type BadgeTone } from '@app/ui';
import { useWebhooksMessages, type WebhooksPageMessages } from '../../i18n/webhooks-messages';

export interface WebhookStatus {
  tone: BadgeTone;
  label: string;
  /** Why, in a sentence: the reason it was switched off, or since when it fails. */
  detail: string | null;
}

/**
 * An endpoint's state as one badge: switched off by the dispatcher (with its reason), paused by
 * someone, failing since a time, or active.
 */
export function webhookStatus(item: Webhook, m: WebhooksPageMessages): WebhookStatus {
  const t = m.webhooks.status;
  if (!item.active && item.disabled_reason) {
    return { tone: 'danger', label: t.disabled, detail: t.disabledBecause(item.disabled_reason) };
  }
  if (!item.active) return { tone: 'neutral', label: t.paused, detail: null };
  if (item.failing_since) return { tone: 'warning', label: t.failingSince(item.failing_since), detail: null };
  return { tone: 'success', label: t.active, detail: null };
}

/** The status badge, and "Circuit open" beside it while the breaker holds deliveries back. */
export function WebhookStatusBadges({ item, showDetail = false }: { item: Webhook; showDetail?: boolean }) {
  const m = useWebhooksMessages();
  const t = m.webhooks.status;
  const status = webhookStatus(item, m);
  const open = item.active && item.circuit.state === 'open';
  return (
    <span className="inline-flex flex-col gap-1">
      <span className="inline-flex flex-wrap items-center gap-1.5">
        <Badge tone={status.tone} dot title={status.detail ?? undefined}>
          {status.label}
        </Badge>
        {open ? (
          <Badge
            tone="danger"
            title={item.circuit.open_until ? t.circuitOpenUntil(item.circuit.open_until) : undefined}
          >
            {t.circuitOpen}
          </Badge>
        ) : item.active && item.circuit.state === 'half_open' ? (
          <Badge tone="warning">{t.circuitHalfOpen}</Badge>
        ) : null}
      </span>
      {showDetail && status.detail ? <span className="text-xs text-muted-foreground">{status.detail}</span> : null}
      {showDetail && open && item.circuit.open_until ? (
        <span className="text-xs text-muted-foreground">{t.circuitOpenUntil(item.circuit.open_until)}</span>
      ) : null}
    </span>
  );
}

export const eventLabel = (type: string, m: WebhooksPageMessages): string =>
  (m.webhooks.events as Record<string, { label: string } | undefined>)[type]?.label ?? m.webhooks.unknownEvent(type);
