import { useQueries } from '@tanstack/react-query';
import type { RecordName } from '../../../lib/resource-list/bulk-actions';
import { useTRPC } from '../../../lib/trpc';
import { useCan, useSession } from '../../auth/use-session';
import { canSeeTrash } from './user-actions';

/**
 * Names for users a dry run skipped whom the list never showed: the signed-in one (a rule about
 * oneself), the others looked up one by one — deleted ones too, for a caller who may see them.
 */
export function useUserNames(ids: readonly number[]): ReadonlyMap<number, RecordName> {
  const trpc = useTRPC();
  const me = useSession().session?.user;
  const withTrashed = canSeeTrash(useCan());
  const lookups = useQueries({
    queries: ids
      .filter((id) => id !== me?.id)
      .map((id) =>
        trpc.users.show.queryOptions({ id, ...(withTrashed ? { withTrashed: true } : {}) }, { retry: false }),
      ),
  });
  const names = new Map<number, RecordName>();
  if (me) names.set(me.id, { name: me.name, detail: me.email });
  for (const lookup of lookups) {
    if (lookup.data) names.set(lookup.data.item.id, { name: lookup.data.item.name, detail: lookup.data.item.email });
  }
  return names;
}
