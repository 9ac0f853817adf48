import type { Permission } from '@app/contracts';
import { LayoutDashboard, type LucideIcon } from 'lucide-react';
import type { Messages } from '../i18n/messages';

/** The capability map of `GET /api/auth/me` (`can`), or part of it: permission → allowed. */
export type Capabilities = Readonly<Partial<Record<Permission, boolean>>>;

export interface NavItem {
  to: string;
  label: (m: Messages) => string;
  icon: LucideIcon;
  /** Shown only when `can[requires]` is true; absent means every signed-in user sees it. */
  requires?: Permission;
  /** Active only on an exact path match (for `/`). */
  end?: boolean;
}

/**
 * The navigation, as data. Gated entries arrive with their features, e.g.
 * `{ to: '/users', label: (m) => m.nav.users, icon: Users, requires: 'users.view' }`.
 */
export const NAV_ITEMS: readonly NavItem[] = [
  { to: '/', label: (m) => m.nav.overview, icon: LayoutDashboard, end: true },
];

export function visibleNavItems(items: readonly NavItem[], can: Capabilities): NavItem[] {
  return items.filter((item) => item.requires === undefined || can[item.requires] === true);
}
