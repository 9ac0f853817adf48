import type { Webhook } from '@app/contracts';
import {
  Button,
  buttonClassName,
  Card,
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuTrigger,
  EmptyState,
  PageHeader,
  Skeleton,
} from '@app/ui';
import { useQuery } from '@tanstack/react-query';
import { MoreHorizontal, Pencil, Plus, Trash2, Webhook as WebhookIcon } from 'lucide-react';
import { Link, useNavigate } from 'react-router';
import { useWebhooksMessages } from '../../i18n/webhooks-messages';
import { useTRPC } from '../../lib/trpc';
import { QueryStates } from '../errors/query-states';
import { useDeleteWebhookDialog } from './use-delete-webhook';
import { WebhookStatusBadges } from './webhook-status';

function WebhookRow({ item, onDelete }: { item: Webhook; onDelete: (item: Webhook) => void }) {
  const m = useWebhooksMessages();
  const t = m.webhooks;
  const navigate = useNavigate();
  return (
    <li className="flex items-start gap-3 px-5 py-4">
      <div className="min-w-0 flex-1">
        <Link
          to={`/webhooks/${item.id}`}
          className="rounded-sm font-mono text-sm font-medium break-all text-foreground underline-offset-4 hover:underline"
        >
          {item.url}
        </Link>
        <p className="mt-0.5 text-sm break-words text-muted-foreground">{item.description || t.noDescription}</p>
        <div className="mt-2 flex flex-wrap items-start gap-x-3 gap-y-1.5 text-xs text-muted-foreground">
          <WebhookStatusBadges item={item} showDetail />
          <span className="py-0.5">{t.eventsCount(item.events.length)}</span>
        </div>
      </div>
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <Button variant="ghost" size="icon-sm" aria-label={t.list.actions(item.url)}>
            <MoreHorizontal aria-hidden="true" />
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent align="end">
          <DropdownMenuItem onSelect={() => void navigate(`/webhooks/${item.id}/edit`)}>
            <Pencil aria-hidden="true" />
            {t.list.edit}
          </DropdownMenuItem>
          <DropdownMenuItem onSelect={() => onDelete(item)}>
            <Trash2 aria-hidden="true" />
            {t.list.delete}
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
    </li>
  );
}

/** `/webhooks` (webhooks.manage): every endpoint with its state; add, edit, delete. */
export function WebhooksListPage() {
  const m = useWebhooksMessages();
  const t = m.webhooks;
  const trpc = useTRPC();
  const list = useQuery(trpc.webhooks.list.queryOptions());
  const { ask, dialog } = useDeleteWebhookDialog();
  const add = (
    <Link to="/webhooks/new" className={buttonClassName()}>
      <Plus aria-hidden="true" />
      {t.add}
    </Link>
  );

  return (
    <>
      <title>{m.app.documentTitle(t.title)}</title>
      <PageHeader title={t.title} description={t.subtitle} actions={list.data?.items.length ? add : null} />
      <Card className="mt-6 overflow-hidden">
        <QueryStates
          query={list}
          loading={{
            label: t.list.loading,
            rows: 3,
            row: (
              <div className="space-y-2 px-5 py-4">
                <Skeleton className="h-4 w-72 max-w-full" />
                <Skeleton className="h-4 w-40" />
                <Skeleton className="h-5 w-32" />
              </div>
            ),
          }}
          failed={{ title: t.list.errorTitle, retry: t.list.retry }}
        >
          {(data) =>
            data.items.length === 0 ? (
              <EmptyState
                icon={<WebhookIcon aria-hidden="true" />}
                title={t.empty.title}
                description={t.empty.description}
                action={add}
              />
            ) : (
              <ul aria-label={t.list.label} className="divide-y divide-border">
                {data.items.map((item) => (
                  <WebhookRow key={item.id} item={item} onDelete={ask} />
                ))}
              </ul>
            )
          }
        </QueryStates>
      </Card>
      {dialog}
    </>
  );
}
