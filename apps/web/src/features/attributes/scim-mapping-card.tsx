import type { Attribute } from '@app/contracts';
import { Card, CardDescription, CardHeader, CardTitle, Skeleton } from '@app/ui';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';
import { useAttributesMessages } from '../../i18n/attributes-messages';
import { useTRPC } from '../../lib/trpc';
import { QueryStates } from '../errors/query-states';
import { SCIM_MAPPING_ANCHOR } from './scim-mapping-draft';
import { ScimMappingForm } from './scim-mapping-form';

/**
 * The attributes page's "SCIM provisioning" card: which declared attribute each field of SCIM's
 * enterprise extension fills. Reached from the provisioning dialog by its anchor.
 */
export function ScimMappingCard({ attributes }: { attributes: readonly Attribute[] }) {
  const m = useAttributesMessages();
  const t = m.scimMapping;
  const trpc = useTRPC();
  const show = useQuery(trpc.scimMapping.show.queryOptions());
  const card = useRef<HTMLElement>(null);
  const { hash } = useLocation();
  const loaded = show.data !== undefined;

  // The browser scrolls to an anchor only if it is there on load; this card comes after two queries.
  useEffect(() => {
    if (loaded && hash === `#${SCIM_MAPPING_ANCHOR}`) card.current?.scrollIntoView({ block: 'start' });
  }, [loaded, hash]);

  return (
    <Card
      ref={card}
      id={SCIM_MAPPING_ANCHOR}
      aria-labelledby={`${SCIM_MAPPING_ANCHOR}-title`}
      className="mt-8 max-w-4xl scroll-mt-6"
    >
      <CardHeader>
        <div className="min-w-0">
          <CardTitle id={`${SCIM_MAPPING_ANCHOR}-title`} className="text-base">
            {t.title}
          </CardTitle>
          <CardDescription className="text-pretty">{t.description}</CardDescription>
          <CardDescription className="mt-2 text-pretty">{t.sensitiveNote}</CardDescription>
        </div>
      </CardHeader>
      <QueryStates
        query={show}
        loading={{
          label: t.loading,
          rows: 1,
          className: 'grid gap-5 p-5 sm:grid-cols-2',
          row: Array.from({ length: 6 }, (_, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: placeholders never reorder
            <div key={i} className="space-y-2">
              <Skeleton className="h-4 w-32" />
              <Skeleton className="h-9 w-full" />
            </div>
          )),
        }}
        failed={{ title: t.loadFailed, retry: m.common.retry, inline: true }}
      >
        {({ item }) => (
          // A save answers the new mapping: the form starts again from it, unchanged.
          <ScimMappingForm key={JSON.stringify(item.mapping)} saved={item.mapping} attributes={attributes} />
        )}
      </QueryStates>
    </Card>
  );
}
