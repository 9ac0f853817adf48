import { canSeeTrash, type UserShowItem } from '@app/contracts';
import { Alert, Avatar, Badge, Card, Skeleton } from '@app/ui';
import { useQuery } from '@tanstack/react-query';
import { useUserPagesMessages } from '../../../i18n/user-pages-messages';
import { useTRPC } from '../../../lib/trpc';
import { RecordPage } from '../../errors/record-page';
import { useCan, useSession } from '../../auth/use-session';
import { UserHistory } from '../../audit/user-history';
import { SignInHistory } from '../../sessions/sign-in-history';
import { UserSessionsSection } from '../../sessions/user-sessions-section';
import { UserTokensSection } from '../../tokens/user-tokens-section';
import { useIdParam } from '../../../lib/use-id-param';
import { useUserActionDialog } from './use-user-action-dialog';
import { UserAccessCard } from './user-access-card';
import { UserDangerZone, UserHeaderActions } from './user-actions';
import { UserStatusBadge } from './user-badges';
import { UserTwoFactorCard } from './user-two-factor-card';
import { UserDetailsCard, UserPermissionsCard, UserRolesCard } from './user-show-cards';
import { UserAttributesCard } from '../../attributes/user-attributes-card';

/** `/users/:id`: who the user is, what they may do, and what the viewer may do to them. */
export function UserShowPage() {
  const m = useUserPagesMessages();
  const trpc = useTRPC();
  const can = useCan();
  const id = useIdParam();
  // A deleted user is shown only to those who can do something about it: the contract's rule,
  // the very function the API's record policy asks.
  const withTrashed = canSeeTrash((permission) => can[permission]);
  const show = useQuery({
    ...trpc.users.show.queryOptions({
      id: id ?? 0,
      with: ['roles'],
      append: ['permission_names', 'is_admin'],
      withTrashed,
    }),
    enabled: id !== null,
  });

  return (
    <RecordPage
      id={id}
      query={show}
      backTo="/users"
      strings={{ ...m.userPage, back: m.userPage.backToUsers }}
      skeleton={<UserProfileSkeleton label={m.userPage.loading} />}
      render={(data) => <UserProfile user={data.item} />}
    />
  );
}

function UserProfile({ user }: { user: UserShowItem }) {
  const m = useUserPagesMessages();
  const { session } = useSession();
  const { ask, dialog } = useUserActionDialog(user);
  const isSelf = session?.user.id === user.id;
  // The banner's reason, which the Sessions and API tokens sections then need not repeat.
  const outranked = user.actions.update.code === 'OUTRANKED' ? (user.actions.update.message ?? null) : null;

  return (
    <>
      <title>{m.app.documentTitle(user.name)}</title>
      <div className="mt-4 flex flex-col gap-5 sm:flex-row sm:items-start sm:justify-between">
        <div className="flex min-w-0 items-center gap-4">
          <Avatar name={user.name} size="lg" />
          <div className="min-w-0">
            <div className="flex flex-wrap items-center gap-x-2.5 gap-y-1">
              <h1 className="min-w-0 text-2xl font-semibold tracking-tight break-words text-foreground">{user.name}</h1>
              <UserStatusBadge isActive={user.is_active} deletedAt={user.deleted_at} />
              {user.is_admin ? <Badge tone="warning">{m.userPage.administrator}</Badge> : null}
              {isSelf ? <Badge>{m.userPage.you}</Badge> : null}
            </div>
            <p className="mt-0.5 text-sm break-all text-muted-foreground">{user.email}</p>
          </div>
        </div>
        <div className="flex shrink-0 flex-wrap gap-2">
          <UserHeaderActions user={user} ask={ask} />
        </div>
      </div>

      {user.deleted_at ? (
        <Alert tone="warning" title={m.userPage.deletedBannerTitle} className="mt-6">
          {m.userPage.deletedBanner(m.common.dateTime(user.deleted_at))}
        </Alert>
      ) : null}
      {/* Why an editor sees no controls here: this user holds permissions the editor lacks. */}
      {user.actions.update.code === 'OUTRANKED' ? (
        <Alert title={m.userPage.outrankedTitle} className="mt-6">
          {user.actions.update.message}
        </Alert>
      ) : null}

      {/* One column in reading order on small screens; roles move to a side column on wide ones. */}
      <div className="mt-8 grid gap-6 lg:grid-cols-3 lg:items-start">
        <UserDetailsCard user={user} className="lg:col-span-2" />
        <UserAttributesCard values={user.attributes} className="lg:col-span-2" />
        <UserRolesCard roles={user.roles ?? []} className="lg:col-start-3 lg:row-span-3 lg:row-start-1" />
        <UserPermissionsCard userId={user.id} names={user.permission_names ?? []} className="lg:col-span-2" />
        <UserAccessCard user={user} className="lg:col-span-2" />
        <UserTwoFactorCard user={user} className="lg:col-span-2" />
        {/* Which sections appear is the server's answer (`sections`), as the actions are. */}
        {user.sections.history ? <UserHistory userId={user.id} className="lg:col-span-2" /> : null}
        {user.sections.sessions ? (
          <UserSessionsSection user={user} explained={outranked} className="lg:col-span-2" />
        ) : null}
        {user.sections.tokens ? (
          <UserTokensSection user={user} explained={outranked} className="lg:col-span-2" />
        ) : null}
        {user.sections.history ? <SignInHistory userId={user.id} className="lg:col-span-2" /> : null}
        <UserDangerZone user={user} ask={ask} className="lg:col-span-2" />
      </div>
      {dialog}
    </>
  );
}

function UserProfileSkeleton({ label }: { label: string }) {
  return (
    <div role="status" aria-label={label}>
      <div className="mt-4 flex items-center gap-4">
        <Skeleton className="size-12 rounded-full" />
        <div className="space-y-2">
          <Skeleton className="h-6 w-48" />
          <Skeleton className="h-4 w-56" />
        </div>
      </div>
      <div className="mt-8 grid gap-6 lg:grid-cols-3">
        <Card className="space-y-4 p-5 lg:col-span-2">
          {[0, 1, 2, 3].map((row) => (
            <div key={row} className="grid grid-cols-3 gap-4">
              <Skeleton className="h-4 w-20" />
              <Skeleton className="col-span-2 h-4 w-3/5" />
            </div>
          ))}
        </Card>
        <Card className="space-y-3 p-5">
          <Skeleton className="h-4 w-16" />
          <Skeleton className="h-8 w-full" />
          <Skeleton className="h-8 w-full" />
        </Card>
      </div>
    </div>
  );
}
