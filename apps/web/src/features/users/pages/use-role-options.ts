import type { UserNewResult } from '@app/contracts';
import { useQuery } from '@tanstack/react-query';
import { useTRPC } from '../../../lib/trpc';

const NO_ATTRIBUTES: UserNewResult['options']['attributes'] = [];

export interface NewUserFormData {
  /** Undefined while loading; null when the server did not answer (the roles section is left out). */
  roleOptions: UserNewResult['options']['roles'] | null | undefined;
  /** Whether the form offers the active switch: creating an account inactive takes users.setActive. */
  showActive: boolean;
  /** Each permission as a direct grant, grantable or not (with the reason); undefined until answered. */
  permissionOptions: UserNewResult['options']['permissions'] | undefined;
  /** The custom attributes the caller may fill in (none until answered). */
  attributeFields: UserNewResult['options']['attributes'];
}

/**
 * What the create form needs, as the server decides it (`GET /users/new`): each role and each
 * direct permission with whether this caller may grant it — the anti-escalation rules the create
 * route applies — and whether it may create an account inactive. The SPA decides none of them.
 */
export function useNewUserFormData(): NewUserFormData {
  const trpc = useTRPC();
  const form = useQuery({ ...trpc.users.new.queryOptions(), retry: false });
  if (form.isError) return { roleOptions: null, showActive: false, permissionOptions: undefined, attributeFields: [] };
  return {
    roleOptions: form.data?.options.roles,
    showActive: form.data?.can.setActive ?? false,
    permissionOptions: form.data?.options.permissions,
    attributeFields: form.data?.options.attributes ?? NO_ATTRIBUTES,
  };
}
