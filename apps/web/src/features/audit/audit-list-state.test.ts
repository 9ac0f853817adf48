import { describe, expect, it } from 'vitest';
import { auditList, auditListHref } from './audit-list-state';

const AUDIT_LIST_CODEC = auditList.codec;

describe('the audit list in the URL', () => {
  it('reads actions, a day range and a user’s history, and writes them back the same', () => {
    const search =
      'filters[action][]=user.update&filters[action][]=user.deactivate&filters[occurred_between][from]=2026-11-01&filters[user_id]=7';
    const state = AUDIT_LIST_CODEC.parse(search);
    expect(state.filters).toEqual({
      action: ['user.update', 'user.deactivate'],
      occurred_between: { from: '2026-11-01' },
      user_id: 7,
    });
    expect(AUDIT_LIST_CODEC.parse(AUDIT_LIST_CODEC.toSearch(state))).toEqual(state);
  });

  it('drops what the contract refuses and keeps the rest', () => {
    const state = AUDIT_LIST_CODEC.parse('filters[action]=user.explode&filters[ip]=10.0.0.1&sort=name&perPage=many');
    expect(state.filters).toEqual({ ip: '10.0.0.1' });
    expect(state.sort).toBeNull();
    expect(state.perPage).toBe(25);
  });

  it('links to a filtered list, and to the plain list without filters', () => {
    expect(auditListHref({ user_id: 7 })).toBe('/audit?filters[user_id]=7');
    expect(auditListHref({})).toBe('/audit');
  });
});
