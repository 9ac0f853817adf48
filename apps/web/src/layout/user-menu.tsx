import {
  Avatar,
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@app/ui';
import { ChevronDown, KeyRound, LogOut, MonitorSmartphone, ShieldCheck } from 'lucide-react';
import { useNavigate } from 'react-router';
import { ACCOUNT_SESSIONS_PATH, ACCOUNT_TOKENS_PATH } from '../features/auth/account-nav';
import { ACCOUNT_PATH } from '../lib/auth-paths';
import { useSession } from '../features/auth/use-session';
import { useSignOut } from '../features/auth/use-sign-out';
import { useMessages } from '../i18n/messages';

/** The signed-in user's name with a menu: what the account may do, and sign out. */
export function UserMenu() {
  const m = useMessages();
  const navigate = useNavigate();
  const { session } = useSession();
  const { signOut, pending } = useSignOut();
  if (!session) return null;
  const { user } = session;

  return (
    <DropdownMenu>
      <DropdownMenuTrigger className="flex h-9 max-w-56 items-center gap-2 rounded-full py-1 pr-2 pl-1 text-sm font-medium text-foreground transition-colors hover:bg-surface-muted focus-visible:outline-2 focus-visible:outline-ring data-[state=open]:bg-surface-muted">
        <Avatar name={user.name} size="sm" />
        {/* The name is the button's label (Radix announces the menu); on phones it is read, not shown. */}
        <span className="truncate max-sm:sr-only">{user.name}</span>
        <ChevronDown aria-hidden="true" className="size-3.5 shrink-0 text-muted-foreground" />
      </DropdownMenuTrigger>
      <DropdownMenuContent className="w-64">
        <DropdownMenuLabel className="flex items-center gap-3 py-2 font-normal">
          <Avatar name={user.name} />
          <span className="min-w-0">
            <span className="block truncate text-sm font-medium text-foreground">{user.name}</span>
            <span className="block truncate text-xs text-muted-foreground">{user.email}</span>
          </span>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={() => void navigate(ACCOUNT_PATH)}>
          <ShieldCheck aria-hidden="true" />
          {m.userMenu.access}
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={() => void navigate(ACCOUNT_TOKENS_PATH)}>
          <KeyRound aria-hidden="true" />
          {m.userMenu.tokens}
        </DropdownMenuItem>
        <DropdownMenuItem onSelect={() => void navigate(ACCOUNT_SESSIONS_PATH)}>
          <MonitorSmartphone aria-hidden="true" />
          {m.userMenu.sessions}
        </DropdownMenuItem>
        <DropdownMenuSeparator />
        <DropdownMenuItem disabled={pending} onSelect={signOut}>
          <LogOut aria-hidden="true" />
          {pending ? m.session.signingOut : m.userMenu.signOut}
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
