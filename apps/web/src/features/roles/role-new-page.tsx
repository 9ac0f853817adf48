import { Alert, Card, PageHeader, Skeleton } from '@app/ui';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { toast } from '../../lib/toast';
import { BackLink } from '../../components/back-link';
import { useRolesMessages } from '../../i18n/roles-messages';
import { useRoleEditorMessages } from '../../i18n/role-editor-messages';
import { apiErrorMessage } from '../../lib/api-error';
import { useTRPC } from '../../lib/trpc';
import { useLeaveBack } from '../../lib/use-leave-back';
import { EMPTY_ROLE_FORM, RoleForm, useRoleForm } from './role-form';

/** `/roles/new` (roles.create): the role form, empty; once created, the role's page. */
export function RoleNewPage() {
  const m = useRolesMessages();
  const r = useRoleEditorMessages();
  const t = r.form;
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const cancel = useLeaveBack('/roles');
  const catalogue = useQuery(trpc.permissions.list.queryOptions());
  const create = useMutation(trpc.roles.create.mutationOptions());
  const form = useRoleForm(EMPTY_ROLE_FORM);

  return (
    <>
      <title>{m.app.documentTitle(t.newTitle)}</title>
      <BackLink to="/roles" label={m.roles.title} />
      <PageHeader className="mt-3" title={t.newTitle} description={t.newSubtitle} />
      <div className="mt-8 max-w-5xl">
        {catalogue.data ? (
          <RoleForm
            form={form}
            catalogue={catalogue.data.rows}
            submitLabel={t.create}
            onCancel={cancel}
            onSubmit={async (input) => {
              const { item } = await create.mutateAsync(input);
              toast.success(t.created);
              void navigate(`/roles/${item.id}`, { replace: true });
              // Stale, not refetched now: the lists are not on screen.
              void queryClient.invalidateQueries({ ...trpc.roles.pathFilter(), refetchType: 'none' });
              void queryClient.invalidateQueries({ ...trpc.permissions.pathFilter(), refetchType: 'none' });
            }}
          />
        ) : catalogue.isError ? (
          <Alert tone="danger" title={t.catalogueError}>
            {apiErrorMessage(catalogue.error, m)}
          </Alert>
        ) : (
          <RoleFormSkeleton label={t.loading} />
        )}
      </div>
    </>
  );
}

export function RoleFormSkeleton({ label }: { label: string }) {
  return (
    <Card role="status" aria-label={label} className="space-y-5 p-6">
      <Skeleton className="h-9 w-full max-w-md" />
      <Skeleton className="h-9 w-full max-w-md" />
      <Skeleton className="h-64 w-full" />
    </Card>
  );
}
