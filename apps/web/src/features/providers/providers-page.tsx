import { Badge, Button, buttonClassName, Card, ConfirmDialog, EmptyState, PageHeader, Skeleton } from '@app/ui';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { KeyRound, Plus } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { useProvidersMessages } from '../../i18n/providers-messages';
import { apiErrorMessage } from '../../lib/api-error';
import { toast } from '../../lib/toast';
import { QueryStates } from '../errors/query-states';
import { PROVIDERS_PATH, type Provider, providerKeys, providersApi } from './providers-api';

/** `/settings/sign-in`: the single sign-on providers, to add, edit and delete (`auth.manage`). */
export function ProvidersPage() {
  const m = useProvidersMessages();
  const queryClient = useQueryClient();
  const providers = useQuery({ queryKey: providerKeys.all, queryFn: providersApi.list });
  const [deleting, setDeleting] = useState<Provider | null>(null);
  const remove = useMutation({
    mutationFn: (provider: Provider) => providersApi.remove(provider.id),
    onSuccess: (_answer, provider) => {
      toast.success(m.providers.deleted(provider.name));
      setDeleting(null);
      void queryClient.invalidateQueries({ queryKey: providerKeys.all });
    },
    onError: (error) => toast.error(apiErrorMessage(error, m)),
  });

  return (
    <>
      <title>{m.app.documentTitle(m.providers.title)}</title>
      <PageHeader
        title={m.providers.title}
        description={m.providers.subtitle}
        actions={
          <Link to={`${PROVIDERS_PATH}/new`} className={buttonClassName({})}>
            <Plus aria-hidden="true" />
            {m.providers.add}
          </Link>
        }
      />
      <QueryStates
        query={providers}
        loading={{
          label: m.common.loading,
          row: <Skeleton className="h-24 rounded-xl" />,
          className: 'mt-6 grid max-w-3xl gap-4',
        }}
        failed={{ title: m.providers.loadFailed, retry: m.common.retry }}
      >
        {({ rows }) =>
          rows.length === 0 ? (
            <EmptyState
              className="mt-6"
              icon={<KeyRound aria-hidden="true" />}
              title={m.providers.emptyTitle}
              description={m.providers.emptyDescription}
            />
          ) : (
            <ul className="mt-6 grid max-w-3xl gap-4">
              {rows.map((provider) => (
                <li key={provider.id}>
                  <Card className="flex flex-col gap-3 p-5 sm:flex-row sm:items-start sm:justify-between">
                    <div className="min-w-0">
                      <h2 className="truncate text-base font-semibold text-foreground">{provider.name}</h2>
                      <p className="truncate text-sm text-muted-foreground">{provider.issuer}</p>
                      <p className="mt-1 text-sm text-muted-foreground">
                        {m.providers.domains(provider.allowed_domains)}
                      </p>
                      <Badge tone={provider.create_users ? 'success' : 'neutral'} className="mt-2">
                        {provider.create_users ? m.providers.createsAccounts : m.providers.matchesAccounts}
                      </Badge>
                    </div>
                    <div className="flex shrink-0 gap-2">
                      <Link
                        to={`${PROVIDERS_PATH}/${provider.id}`}
                        className={buttonClassName({ variant: 'secondary', size: 'sm' })}
                        aria-label={`${m.providers.edit} ${provider.name}`}
                      >
                        {m.providers.edit}
                      </Link>
                      <Button
                        variant="danger"
                        size="sm"
                        aria-label={`${m.providers.delete} ${provider.name}`}
                        onClick={() => setDeleting(provider)}
                      >
                        {m.providers.delete}
                      </Button>
                    </div>
                  </Card>
                </li>
              ))}
            </ul>
          )
        }
      </QueryStates>
      <ConfirmDialog
        open={deleting !== null}
        onOpenChange={(open) => !open && setDeleting(null)}
        title={m.providers.deleteTitle(deleting?.name ?? '')}
        description={m.providers.deleteDescription}
        confirmLabel={m.providers.delete}
        cancelLabel={m.providers.cancel}
        tone="danger"
        pending={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
      />
    </>
  );
}
