import { FormError, PageHeader, Skeleton } from '@app/ui';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Navigate, useNavigate } from 'react-router';
import { useProvidersMessages } from '../../i18n/providers-messages';
import { apiErrorMessage } from '../../lib/api-error';
import { toast } from '../../lib/toast';
import { useIdParam } from '../../lib/use-id-param';
import { BackLink } from '../../components/back-link';
import { ProviderForm } from './provider-form';
import { PROVIDERS_PATH, type ProviderInput, providerKeys, providersApi } from './providers-api';

/** `/settings/sign-in/new` and `/settings/sign-in/:id`: one provider's settings. */
export function ProviderPage({ creating = false }: { creating?: boolean }) {
  const m = useProvidersMessages();
  const id = useIdParam();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const show = useQuery({
    queryKey: [...providerKeys.all, id],
    queryFn: () => providersApi.show(id ?? 0),
    enabled: !creating && id !== null,
  });
  if (!creating && id === null) return <Navigate to={PROVIDERS_PATH} replace />;

  const save = async (input: ProviderInput) => {
    const { item } = creating || id === null ? await providersApi.create(input) : await providersApi.update(id, input);
    await queryClient.invalidateQueries({ queryKey: providerKeys.all });
    toast.success(m.providers.saved(item.name));
    void navigate(PROVIDERS_PATH);
  };
  const title = creating ? m.providers.newTitle : m.providers.editTitle(show.data?.item.name ?? '');

  return (
    <>
      <title>{m.app.documentTitle(title)}</title>
      <BackLink to={PROVIDERS_PATH} label={m.providers.back} />
      <PageHeader title={creating || show.data ? title : m.common.loading} className="mt-2" />
      <div className="mt-6">
        {creating ? (
          <ProviderForm onSave={save} onCancel={() => void navigate(PROVIDERS_PATH)} />
        ) : show.data ? (
          <ProviderForm provider={show.data.item} onSave={save} onCancel={() => void navigate(PROVIDERS_PATH)} />
        ) : show.isError ? (
          <FormError className="max-w-2xl" message={apiErrorMessage(show.error, m)} />
        ) : (
          <Skeleton className="h-96 max-w-2xl rounded-xl" />
        )}
      </div>
    </>
  );
}

export const NewProviderPage = () => <ProviderPage creating />;
