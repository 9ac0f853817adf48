import type { WebhookAttempt } from '@app/contracts';
import { Badge } from '@app/ui';
import { useWebhooksMessages } from '../../i18n/webhooks-messages';

function AttemptEntry({ attempt }: { attempt: WebhookAttempt }) {
  const m = useWebhooksMessages();
  const t = m.webhooks.delivery;
  const ok = attempt.status_code !== null && attempt.status_code >= 200 && attempt.status_code < 300;
  return (
    <li className="px-5 py-4 text-sm">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <h3 className="font-medium text-foreground">{t.attempt(attempt.attempt)}</h3>
        <Badge tone={ok ? 'success' : 'danger'} className="font-mono">
          <span className="sr-only">{t.statusCode}: </span>
          {attempt.status_code ?? t.noResponse}
        </Badge>
        <span className="text-xs text-muted-foreground tabular-nums">
          <span className="sr-only">{t.latency}: </span>
          {m.webhooks.deliveries.latency(attempt.latency_ms)}
        </span>
        <time dateTime={attempt.at} className="ml-auto text-xs text-muted-foreground tabular-nums">
          {m.common.dateTime(attempt.at)}
        </time>
      </div>
      {attempt.error ? (
        <p className="mt-2 text-xs break-words text-danger">
          <span className="font-medium">{t.error}: </span>
          {attempt.error}
        </p>
      ) : null}
      {attempt.response_excerpt ? (
        <div className="mt-2">
          <p className="text-xs font-medium text-muted-foreground">{t.response}</p>
          <pre className="mt-1 rounded-md border border-border bg-surface-muted/40 px-3 py-2 font-mono text-xs break-all whitespace-pre-wrap text-foreground">
            {attempt.response_excerpt}
          </pre>
        </div>
      ) : null}
    </li>
  );
}

/** A delivery's attempts in order: status code, latency, time, the error and the start of the answer. */
export function AttemptList({ attempts }: { attempts: readonly WebhookAttempt[] }) {
  const m = useWebhooksMessages();
  if (attempts.length === 0) {
    return (
      <p className="border-t border-border px-5 py-6 text-center text-sm text-muted-foreground">
        {m.webhooks.delivery.noAttempts}
      </p>
    );
  }
  return (
    <ol className="divide-y divide-border border-t border-border">
      {attempts.map((attempt) => (
        <AttemptEntry key={attempt.attempt} attempt={attempt} />
      ))}
    </ol>
  );
}
