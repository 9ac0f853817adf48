import { Users } from 'lucide-react';
import { describe, expect, it } from 'vitest';
import { type NavItem, visibleNavItems } from './nav-items';

const items: NavItem[] = [
  { to: '/', label: (m) => m.nav.overview, icon: Users, end: true },
  { to: '/users', label: (m) => m.nav.overview, icon: Users, requires: 'users.view' },
];

describe('navigation items', () => {
  it('shows a gated entry only when the capability is granted', () => {
    expect(visibleNavItems(items, {}).map((item) => item.to)).toEqual(['/']);
    expect(visibleNavItems(items, { 'users.view': false }).map((item) => item.to)).toEqual(['/']);
    expect(visibleNavItems(items, { 'users.view': true }).map((item) => item.to)).toEqual(['/', '/users']);
  });
});
