import { PERMISSIONS } from '@app/contracts';
import {
  Avatar,
  Button,
  buttonClassName,
  Card,
  CardDescription,
  CardHeader,
  CardTitle,
  EmptyState,
  PageHeader,
} from '@app/ui';
import { KeyRound, LogOut, Users } from 'lucide-react';
import { Link } from 'react-router';
import { useAuthMessages } from '../../i18n/auth-messages';
import { PermissionList } from '../../components/permission-list';
import { AccountPasswordForm } from './account-password-form';
import { AccountProfileForm } from './account-profile-form';
import { AccountNav } from '../auth/account-nav';
import { useSession } from '../auth/use-session';
import { useSignOut } from '../auth/use-sign-out';

/** `/account`: who is signed in, their name and password, and in plain words what the account may do here. */
export function AccountPage() {
  const m = useAuthMessages();
  const { session } = useSession();
  const { signOut, pending } = useSignOut();
  if (!session) return null;
  const held = PERMISSIONS.filter((permission) => session.can[permission]);

  return (
    <>
      <title>{m.app.documentTitle(m.account.title)}</title>
      <PageHeader
        title={m.account.title}
        description={m.account.subtitle}
        actions={
          <>
            {session.can['users.view'] ? (
              <Link to="/users" className={buttonClassName({ variant: 'secondary' })}>
                <Users aria-hidden="true" />
                {m.account.openUsers}
              </Link>
            ) : null}
            <Button variant="secondary" onClick={signOut} loading={pending}>
              {pending ? null : <LogOut aria-hidden="true" />}
              {m.session.signOut}
            </Button>
          </>
        }
      />
      <AccountNav className="mt-6" />
      <div className="mt-6 grid max-w-3xl gap-6">
        <Card className="flex items-center gap-4 p-5">
          <Avatar name={session.user.name} size="lg" />
          <div className="min-w-0">
            <p className="truncate text-base font-semibold text-foreground">{session.user.name}</p>
            <p className="truncate text-sm text-muted-foreground">{session.user.email}</p>
          </div>
        </Card>
        <AccountProfileForm name={session.user.name} />
        <AccountPasswordForm />
        <Card aria-labelledby="account-permissions-title" className="overflow-hidden">
          <CardHeader className="pb-4">
            <div>
              <CardTitle id="account-permissions-title">{m.account.permissionsTitle}</CardTitle>
              <CardDescription>{m.account.permissionsDescription(held.length)}</CardDescription>
            </div>
          </CardHeader>
          {held.length > 0 ? (
            <PermissionList granted={held} className="border-t border-border" />
          ) : (
            <EmptyState
              className="border-t border-border"
              icon={<KeyRound aria-hidden="true" />}
              title={m.account.noneTitle}
              description={m.account.noneDescription}
            />
          )}
        </Card>
      </div>
    </>
  );
}
