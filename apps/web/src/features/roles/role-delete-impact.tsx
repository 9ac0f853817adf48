import type { RolePreview } from '@app/contracts';
import { Spinner } from '@app/ui';
import { useQuery } from '@tanstack/react-query';
import { useRoleEditorMessages } from '../../i18n/role-editor-messages';
import { useTRPCClient } from '../../lib/trpc';
import { ImpactLine, namesBy, namesOf, shown } from './role-impact';

/**
 * What deleting a role takes from its members, asked of the role editor's preview: the role
 * granting nothing and requiring nothing is, for each member, exactly losing it — the
 * permissions they hold through it alone (`losses`) and, when it required a second factor, the
 * members it alone held to one (`released`). The preview takes roles.update; a caller who may
 * delete but not edit roles reads the member count alone and is told the rest couldn't be checked.
 */
export function RoleDeleteImpact({ roleId }: { roleId: number }) {
  const r = useRoleEditorMessages();
  const t = r.remove;
  const client = useTRPCClient();
  const preview = useQuery({
    queryKey: ['roles.preview', roleId, 'removed'],
    queryFn: () => client.roles.preview.mutate({ id: roleId, permissions: [], require_two_factor: false }),
    // Asked each time the dialog opens: members change, and a stale answer would understate the loss.
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });

  return (
    <section aria-labelledby="role-delete-impact-title" aria-busy={preview.isPending} className="flex flex-col gap-2">
      <h3 id="role-delete-impact-title" className="text-sm font-semibold text-foreground">
        {t.impactTitle}
      </h3>
      <div aria-live="polite" className="flex flex-col gap-2">
        {preview.data ? (
          <Losses preview={preview.data} />
        ) : preview.isError ? (
          <p className="text-muted-foreground">{t.impactFailed}</p>
        ) : (
          <p className="flex items-center gap-2 text-muted-foreground">
            <Spinner className="size-3.5" />
            {t.impactChecking}
          </p>
        )}
      </div>
    </section>
  );
}

function Losses({ preview }: { preview: RolePreview }) {
  const r = useRoleEditorMessages();
  const t = r.remove;
  const names = namesBy(preview.users);
  const named = preview.losses.filter((loss) => loss.user_ids.length > 0);
  const { released } = preview.two_factor;
  return (
    <>
      <p className="font-medium text-foreground">
        {preview.losses.length > 0
          ? r.preview.sentence(preview.losses.map((loss) => r.preview.lose(loss.count, loss.permission)))
          : t.losesNothing}
      </p>
      {named.length > 0 ? (
        <ul className="flex flex-col gap-1 text-muted-foreground">
          {named.map((loss) => (
            <ImpactLine key={loss.permission} impact={loss} names={names} />
          ))}
        </ul>
      ) : null}
      {preview.losses.length > 0 && !preview.people.allowed ? (
        <p className="text-muted-foreground">{preview.people.message}</p>
      ) : null}
      {released.count > 0 ? (
        <p className="text-muted-foreground">
          {r.preview.released(released.count)}
          {released.user_ids.length > 0
            ? ` ${r.preview.firstUsers(namesOf(released.user_ids, names), released.count - shown(released.user_ids))}.`
            : null}
        </p>
      ) : null}
    </>
  );
}
