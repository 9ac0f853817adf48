import { AUDIT_ACTIONS, AUDIT_VIA_FILTER } from '@app/contracts';
import type { AuditPageMessages } from '../../i18n/audit-messages';
import type { FilterField } from '../../lib/resource-list/filter-fields';
import { actionLabel } from './audit-format';

/**
 * The audit list's filters for the kit's form and chips. Actor, target and user are set by links
 * (a name in the table, a user's History) and shown as chips; `names` gives the chips the names
 * the page has seen, else an id.
 */
export function auditFilterFields(m: AuditPageMessages, names: ReadonlyMap<number, string>): FilterField[] {
  const t = m.audit.filters;
  const userText = (value: unknown) => {
    const ids = (Array.isArray(value) ? value : [value]).map(Number);
    return ids.map((id) => names.get(id) ?? m.audit.userRef(id)).join(', ');
  };
  return [
    {
      kind: 'multi',
      key: 'action',
      label: t.action,
      chipLabel: t.chip.action,
      description: t.actionHint,
      options: AUDIT_ACTIONS.map((action) => ({ value: action, label: actionLabel(action, m) })),
      unknownValue: (value) => String(value),
    },
    {
      kind: 'dateRange',
      key: 'occurred_between',
      label: t.occurred,
      chipLabel: t.chip.occurred,
      fromLabel: t.occurredFrom,
      toLabel: t.occurredTo,
      rangeText: t.range,
    },
    {
      kind: 'select',
      key: 'via',
      label: t.via,
      chipLabel: t.chip.via,
      allLabel: t.viaAll,
      options: AUDIT_VIA_FILTER.options.map((door) => ({ value: door, label: t.viaChoices[door] })),
    },
    { kind: 'text', key: 'ip', label: t.ip, chipLabel: t.chip.ip, maxLength: 45 },
    { kind: 'fixed', key: 'actor_id', label: t.chip.actor, chipLabel: t.chip.actor, describe: userText },
    { kind: 'fixed', key: 'target_id', label: t.chip.target, chipLabel: t.chip.target, describe: userText },
    { kind: 'fixed', key: 'user_id', label: t.chip.user, chipLabel: t.chip.user, describe: userText },
    // Set by an attribute's History link (the attributes page): its key.
    {
      kind: 'fixed',
      key: 'attribute',
      label: t.chip.attribute,
      chipLabel: t.chip.attribute,
      describe: (value) => String(value),
    },
  ];
}
