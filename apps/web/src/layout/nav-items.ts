import type { Permission } from '@app/contracts';
import {
  Activity,
  KeyRound,
  ListChecks,
  type LucideIcon,
  ScrollText,
  Shield,
  Tags,
  Users,
  Webhook,
} from 'lucide-react';
import type { Messages } from '../i18n/messages';

/** The capability map of `GET /api/auth/me` (`can`), or part of it: permission → allowed. */
export type Capabilities = Readonly<Partial<Record<Permission, boolean>>>;

export interface NavItem {
  to: string;
  label: (m: Messages) => string;
  icon: LucideIcon;
  /** Shown only when `can[requires]` is true; absent means every signed-in user sees it. */
  requires?: Permission;
  /** Active only on an exact path match. */
  end?: boolean;
}

/** The navigation, as data. "Users" needs users.view (SPEC §10), "Roles" roles.view, "Audit log" audit.view, "Webhooks" webhooks.manage, "Sign-in" (single sign-on providers) auth.manage, "Attributes" (custom profile fields) attributes.manage; background jobs (one's own) and the service status are for everyone. */
export const NAV_ITEMS: readonly NavItem[] = [
  { to: '/users', label: (m) => m.nav.users, icon: Users, requires: 'users.view' },
  { to: '/roles', label: (m) => m.nav.roles, icon: Shield, requires: 'roles.view' },
  { to: '/audit', label: (m) => m.nav.audit, icon: ScrollText, requires: 'audit.view' },
  { to: '/webhooks', label: (m) => m.nav.webhooks, icon: Webhook, requires: 'webhooks.manage' },
  { to: '/settings/sign-in', label: (m) => m.nav.signIn, icon: KeyRound, requires: 'auth.manage' },
  { to: '/settings/attributes', label: (m) => m.nav.attributes, icon: Tags, requires: 'attributes.manage' },
  { to: '/jobs', label: (m) => m.jobs.nav, icon: ListChecks },
  { to: '/status', label: (m) => m.nav.status, icon: Activity },
];

export function visibleNavItems(items: readonly NavItem[], can: Capabilities): NavItem[] {
  return items.filter((item) => item.requires === undefined || can[item.requires] === true);
}
