import { isPermission } from '@app/contracts';
import { useQueries, useQuery } from '@tanstack/react-query';
import { useTRPC } from '../../../lib/trpc';
import { useCan } from '../../auth/use-session';
import type { RoleOption } from './user-form-fields';

/**
 * Role options for a new user. There is no record yet to ask `users.edit` about, so the names
 * come with the users list (`availableRoles`) and each role's permissions from `roles.show`:
 * a role is assignable when the actor holds every permission it carries — the server's
 * anti-escalation rule, which still decides. Without roles.view every role is offered and the
 * server's refusal lands on the field; without users.view there are no options (null).
 */
export function useRoleOptions(): RoleOption[] | null | undefined {
  const trpc = useTRPC();
  const can = useCan();
  const list = useQuery({
    ...trpc.users.list.queryOptions({ perPage: 1 }),
    enabled: can['users.view'],
    select: (result) => result.availableRoles,
  });
  const roles = list.data ?? [];
  const details = useQueries({
    queries: roles.map((role) => ({
      ...trpc.roles.show.queryOptions({ id: role.id, with: ['permissions'] }),
      enabled: can['roles.view'],
    })),
  });

  if (!can['users.view'] || list.isError) return null;
  if (!list.data) return undefined;
  if (can['roles.view'] && details.some((detail) => detail.isPending)) return undefined;
  return roles.map((role, index) => {
    const permissions = details[index]?.data?.item.permissions;
    return {
      ...role,
      assignable: permissions
        ? permissions.every((permission) => isPermission(permission.name) && can[permission.name])
        : true,
    };
  });
}
