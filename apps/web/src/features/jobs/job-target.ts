import { type JobTarget, stringifyQuery } from '@app/contracts';
import type { Messages } from '../../i18n/messages';
import { chipsOf } from '../../lib/resource-list/filter-fields';
import { usersFilters } from '../../lib/users-query/users-filter-fields';
import { usersList } from '../../lib/users-query/users-list-state';

/** A bulk job's target: every user a users list query matched. */
export type SelectionTarget = Extract<JobTarget, { kind: 'selection' }>;

/** The selection's query as the users list's URL holds it (`q=…&filters[…]=…`). */
export const selectionSearch = (target: SelectionTarget): string =>
  stringifyQuery({ q: target.query.q ?? undefined, filters: target.query.filters });

/**
 * A selection's search and filters as the users list's chips say them ("Status: Active"): the
 * query read by the users list's own codec, its chips drawn by the users list's own fields, with
 * the roles and attributes the job names (the caller need not be able to load the users list).
 */
export function selectionConditions(target: SelectionTarget, m: Messages): string[] {
  const state = usersList.codec.parse(selectionSearch(target));
  // The trash's chip shows only when the selection used it: the submitter could see it then.
  const { chipFields } = usersFilters(m, target.roles, true, target.attributes);
  const chip = m.jobs.titles.chip;
  return [
    ...(state.q ? [chip(m.usersList.filters.chip.search, state.q)] : []),
    ...chipsOf(chipFields, state.filters, m.app.locale).map((c) => chip(c.label, c.value)),
    ...(target.withheld ? [m.jobs.titles.withheld(target.withheld)] : []),
  ];
}
