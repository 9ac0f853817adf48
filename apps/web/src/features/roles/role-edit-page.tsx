import type { RoleShowResult } from '@app/contracts';
import { Alert, buttonClassName, PageHeader } from '@app/ui';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { BackLink } from '../../components/back-link';
import { useRolesMessages } from '../../i18n/roles-messages';
import { useRoleEditorMessages } from '../../i18n/role-editor-messages';
import { apiErrorMessage } from '../../lib/api-error';
import { useTRPC } from '../../lib/trpc';
import { useIdParam } from '../../lib/use-id-param';
import { RecordErrorState } from '../errors/record-error-state';
import { RoleEditForm } from './role-edit-form';
import { RoleFormSkeleton } from './role-new-page';

/**
 * `/roles/:id/edit` (roles.update): the role read fresh (its version must be current) beside the
 * catalogue as the server judged it for the caller; the form, or why this role is not theirs to edit.
 */
export function RoleEditPage() {
  const m = useRolesMessages();
  const r = useRoleEditorMessages();
  const t = r.form;
  const trpc = useTRPC();
  const id = useIdParam();
  const role = useQuery({
    ...trpc.roles.show.queryOptions({ id: id ?? 0, with: ['permissions'], withCount: ['users'] }),
    enabled: id !== null,
    // Always fetched on opening and never kept: a cached version would only earn a 409.
    gcTime: 0,
    refetchOnWindowFocus: false,
  });
  const catalogue = useQuery(trpc.permissions.list.queryOptions());
  const item = role.data?.item;
  // A failed read throws (rather than answering the version already held), so a 409 never compares with stale data.
  const refetchLatest = async (): Promise<RoleShowResult | undefined> =>
    (await role.refetch({ throwOnError: true })).data;

  return (
    <>
      <BackLink to={id ? `/roles/${id}` : '/roles'} label={item?.name ?? m.roles.title} />
      {item && id !== null ? (
        <>
          <title>{m.app.documentTitle(`${t.editTitle}: ${item.name}`)}</title>
          <PageHeader className="mt-3" title={t.editTitle} description={item.name} />
          <div className="mt-8 max-w-5xl">
            {item.actions && !item.actions.update.allowed ? (
              // The server refuses any change to this role (it grants what the caller lacks, or it
              // is the administrators' own): say why instead of a form that cannot be saved.
              <Alert
                tone="warning"
                title={t.cannotEditTitle}
                actions={
                  <Link to={`/roles/${id}`} className={buttonClassName({ variant: 'secondary', size: 'sm' })}>
                    {t.backToRole}
                  </Link>
                }
              >
                {item.actions.update.message}
              </Alert>
            ) : catalogue.data ? (
              <RoleEditForm key={id} item={item} catalogue={catalogue.data.rows} refetchLatest={refetchLatest} />
            ) : catalogue.isError ? (
              <Alert tone="danger" title={t.catalogueError}>
                {apiErrorMessage(catalogue.error, m)}
              </Alert>
            ) : (
              <RoleFormSkeleton label={t.loading} />
            )}
          </div>
        </>
      ) : role.isError || id === null ? (
        <RecordErrorState
          error={role.error}
          notFound={id === null}
          notFoundTitle={m.role.notFoundTitle}
          notFoundDescription={m.role.notFoundDescription}
          errorTitle={m.role.errorTitle}
          onRetry={() => void role.refetch()}
          retrying={role.isFetching}
          back={{ to: '/roles', label: m.roles.title }}
        />
      ) : (
        <div className="mt-8 max-w-5xl">
          <RoleFormSkeleton label={t.loading} />
        </div>
      )}
    </>
  );
}
