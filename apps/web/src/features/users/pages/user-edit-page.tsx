import type { UserEditResult } from '@app/contracts';
import { Alert, buttonClassName, Card, PageHeader, Skeleton } from '@app/ui';
import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { useUserPagesMessages } from '../../../i18n/user-pages-messages';
import { useTRPC } from '../../../lib/trpc';
import { RecordErrorState } from '../../errors/record-error-state';
import { BackLink } from '../../../components/back-link';
import { useIdParam } from '../../../lib/use-id-param';
import { UserEditForm } from './user-edit-form';

/** `/users/:id/edit`: loads the form's data fresh (its version token must be current) and shows the form. */
export function UserEditPage() {
  const m = useUserPagesMessages();
  const trpc = useTRPC();
  const id = useIdParam();
  const edit = useQuery({
    ...trpc.users.edit.queryOptions({ id: id ?? 0 }),
    enabled: id !== null,
    // Always fetched on opening and never kept: a cached version token would only earn a 409.
    gcTime: 0,
    refetchOnWindowFocus: false,
  });
  const refetchLatest = async (): Promise<UserEditResult | undefined> => (await edit.refetch()).data;

  return (
    <>
      <BackLink to={id ? `/users/${id}` : '/users'} label={edit.data?.item.name ?? m.userPage.backToUsers} />
      {edit.data && id !== null ? (
        <>
          <title>{m.app.documentTitle(`${m.userForm.editTitle}: ${edit.data.item.name}`)}</title>
          <PageHeader className="mt-3" title={m.userForm.editTitle} description={edit.data.item.email} />
          <div className="mt-8 max-w-4xl">
            {edit.data.can.update ? (
              <UserEditForm key={id} id={id} data={edit.data} refetchLatest={refetchLatest} />
            ) : (
              // The server refuses any change to this user (e.g. it holds permissions the caller
              // lacks): say why instead of offering a form that cannot be saved.
              <Alert
                tone="warning"
                title={m.userForm.cannotEditTitle}
                actions={
                  <Link to={`/users/${id}`} className={buttonClassName({ variant: 'secondary', size: 'sm' })}>
                    {m.userForm.backToProfile}
                  </Link>
                }
              >
                {edit.data.item.actions.update.message}
              </Alert>
            )}
          </div>
        </>
      ) : edit.isError || id === null ? (
        <RecordErrorState
          error={edit.error}
          notFound={id === null}
          notFoundTitle={m.userPage.notFoundTitle}
          notFoundDescription={m.userPage.notFoundDescription}
          errorTitle={m.userPage.errorTitle}
          onRetry={() => void edit.refetch()}
          retrying={edit.isFetching}
          back={{ to: '/users', label: m.userPage.backToList }}
        />
      ) : (
        <UserFormSkeleton label={m.userForm.loading} />
      )}
    </>
  );
}

export function UserFormSkeleton({ label }: { label: string }) {
  return (
    <div role="status" aria-label={label} className="mt-3">
      <Skeleton className="h-7 w-40" />
      <Skeleton className="mt-2 h-4 w-56" />
      <Card className="mt-8 max-w-4xl divide-y divide-border">
        {[0, 1, 2].map((section) => (
          <div key={section} className="grid gap-5 px-6 py-7 md:grid-cols-3">
            <div className="space-y-2">
              <Skeleton className="h-4 w-20" />
              <Skeleton className="h-3 w-40" />
            </div>
            <div className="space-y-4 md:col-span-2">
              <Skeleton className="h-9 w-full" />
              <Skeleton className="h-9 w-full" />
            </div>
          </div>
        ))}
      </Card>
    </div>
  );
}
