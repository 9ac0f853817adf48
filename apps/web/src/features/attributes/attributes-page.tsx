import type { Attribute } from '@app/contracts';
import { Badge, Button, buttonClassName, Card, EmptyState, PageHeader, Skeleton } from '@app/ui';
import { useQuery } from '@tanstack/react-query';
import { Plus, Tags } from 'lucide-react';
import { Link } from 'react-router';
import { useCan } from '../auth/use-session';
import { useAttributesMessages } from '../../i18n/attributes-messages';
import { auditListHref } from '../audit/audit-list-state';
import { useTRPC } from '../../lib/trpc';
import { QueryStates } from '../errors/query-states';
import { ATTRIBUTES_PATH } from './attribute-page';
import { ScimMappingCard } from './scim-mapping-card';
import { useDeleteAttribute } from './use-delete-attribute';

function AttributeRow({ item, onDelete }: { item: Attribute; onDelete: (item: Attribute) => void }) {
  const m = useAttributesMessages();
  const t = m.attributes;
  const can = useCan();
  return (
    <li className="flex flex-col gap-3 px-5 py-4 sm:flex-row sm:items-start sm:justify-between">
      <div className="min-w-0">
        <h2 className="text-sm font-semibold break-words text-foreground">{item.label}</h2>
        <p className="font-mono text-xs break-all text-muted-foreground">{item.key}</p>
        <div className="mt-2 flex flex-wrap items-center gap-1.5">
          <Badge>{m.attributeTypes[item.type]}</Badge>
          {item.required ? <Badge tone="warning">{t.required}</Badge> : null}
          {item.unique ? <Badge tone="warning">{t.unique}</Badge> : null}
          {item.sensitivity === 'none' ? null : (
            <Badge tone={item.sensitivity === 'sensitive' ? 'danger' : 'neutral'}>
              {m.sensitivities[item.sensitivity].label}
            </Badge>
          )}
          <span className="text-xs text-muted-foreground">{t.holders(item.holders)}</span>
        </div>
        {item.description ? <p className="mt-1.5 text-sm text-muted-foreground">{item.description}</p> : null}
      </div>
      <div className="flex shrink-0 gap-2">
        {can['audit.view'] ? (
          <Link
            to={auditListHref({ attribute: item.key })}
            className={buttonClassName({ variant: 'ghost', size: 'sm' })}
            aria-label={`${t.history} ${item.label}`}
          >
            {t.history}
          </Link>
        ) : null}
        <Link
          to={`${ATTRIBUTES_PATH}/${item.key}`}
          className={buttonClassName({ variant: 'secondary', size: 'sm' })}
          aria-label={`${t.edit} ${item.label}`}
        >
          {t.edit}
        </Link>
        <Button variant="danger" size="sm" aria-label={`${t.delete} ${item.label}`} onClick={() => onDelete(item)}>
          {t.delete}
        </Button>
      </div>
    </li>
  );
}

/**
 * `/settings/attributes` (attributes.manage): the declared attributes, with how many users hold each,
 * then which of them SCIM's enterprise fields fill.
 */
export function AttributesPage() {
  const m = useAttributesMessages();
  const t = m.attributes;
  const trpc = useTRPC();
  const list = useQuery(trpc.attributes.list.queryOptions());
  const { ask, dialog } = useDeleteAttribute();
  const add = (
    <Link to={`${ATTRIBUTES_PATH}/new`} className={buttonClassName()}>
      <Plus aria-hidden="true" />
      {t.add}
    </Link>
  );

  return (
    <>
      <title>{m.app.documentTitle(t.title)}</title>
      <PageHeader title={t.title} description={t.subtitle} actions={add} />
      <Card className="mt-6 max-w-4xl overflow-hidden">
        <QueryStates
          query={list}
          loading={{
            label: t.loading,
            rows: 3,
            row: (
              <div className="space-y-2 px-5 py-4">
                <Skeleton className="h-4 w-48" />
                <Skeleton className="h-3 w-24" />
                <Skeleton className="h-5 w-64 max-w-full" />
              </div>
            ),
          }}
          failed={{ title: t.loadFailed, retry: m.common.retry }}
        >
          {({ rows }) =>
            rows.length === 0 ? (
              <EmptyState icon={<Tags aria-hidden="true" />} title={t.emptyTitle} description={t.emptyDescription} />
            ) : (
              <ul aria-label={t.listLabel} className="divide-y divide-border">
                {rows.map((item) => (
                  <AttributeRow key={item.key} item={item} onDelete={ask} />
                ))}
              </ul>
            )
          }
        </QueryStates>
      </Card>
      {/* The mapping's choices are the declared attributes: it waits for them. */}
      {list.data ? <ScimMappingCard attributes={list.data.rows} /> : null}
      {dialog}
    </>
  );
}
