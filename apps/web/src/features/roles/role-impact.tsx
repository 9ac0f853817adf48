import {
  type Permission,
  PERMISSIONS,
  type PermissionImpact,
  type PreviewUser,
  type RolePreview,
} from '@app/contracts';
import { Alert, Spinner } from '@app/ui';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useRoleEditorMessages } from '../../i18n/role-editor-messages';
import { useTRPCClient } from '../../lib/trpc';

/** How long the matrix must rest before the server is asked: a few ticks in a row make one question. */
const PREVIEW_DELAY_MS = 400;
/** Names shown per line; the server sends up to 20, the count is always exact. */
const NAMES_SHOWN = 5;

function useSettled<T>(value: T, delay: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(value), delay);
    return () => window.clearTimeout(timer);
  }, [value, delay]);
  return settled;
}

const known = (names: readonly string[]): Permission[] => PERMISSIONS.filter((name) => names.includes(name));

export interface RoleImpactProps {
  /** The role being edited; none for a new role (asked of POST /roles/preview). */
  roleId?: number;
  /** What the role grants now (nothing for a new role). */
  current: readonly string[];
  /** What it would grant on saving. */
  proposed: readonly string[];
  /** Whether it would require a second factor, only when the form changed that (absent: as it is). */
  requireTwoFactor?: boolean;
}

/** The question as one string (permissions, then the switch when it changed), so a few quick edits settle into one. */
const questionOf = (permissions: readonly string[], requireTwoFactor: boolean | undefined) =>
  `${known(permissions).join(',')}|${requireTwoFactor === undefined ? '' : String(requireTwoFactor)}`;

/**
 * "What will this do?", answered by the server before saving: who gains and who loses which
 * permission (counts and the first users), who managing accounts today would be outranked, who
 * a change of the second-factor requirement would hold at enrolment or let go, and whether the
 * change may be saved at all. The form's value is sent a moment after it stops changing; the
 * last answer stays on screen while the next is asked.
 */
export function RoleImpact({ roleId, current, proposed, requireTwoFactor }: RoleImpactProps) {
  const r = useRoleEditorMessages();
  const t = r.preview;
  const client = useTRPCClient();
  const wanted = questionOf(proposed, requireTwoFactor);
  const settled = useSettled(wanted, PREVIEW_DELAY_MS);
  const unchanged = roleId !== undefined && settled === questionOf(current, undefined);
  const preview = useQuery({
    queryKey: ['roles.preview', roleId ?? 'new', settled],
    queryFn: () => {
      const [names = '', switched = ''] = settled.split('|');
      const permissions = names ? (names.split(',') as Permission[]) : [];
      return roleId === undefined
        ? client.roles.previewNew.mutate({ permissions })
        : client.roles.preview.mutate({
            id: roleId,
            permissions,
            ...(switched ? { require_two_factor: switched === 'true' } : {}),
          });
    },
    enabled: !unchanged,
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
  const checking = wanted !== settled || preview.isFetching;

  return (
    <section aria-labelledby="role-impact-title" className="px-5 py-6 sm:px-6">
      <div className="flex items-center gap-2">
        <h2 id="role-impact-title" className="text-sm font-semibold text-foreground">
          {t.title}
        </h2>
        {checking && !unchanged ? <Spinner className="size-3.5 text-muted-foreground" /> : null}
      </div>
      <p className="mt-1 text-sm text-pretty text-muted-foreground">{t.description}</p>
      <div aria-live="polite" className="mt-4 flex flex-col gap-3">
        {unchanged ? (
          <p className="text-sm text-muted-foreground">{t.unchanged}</p>
        ) : preview.data ? (
          <ImpactReport preview={preview.data} isNew={roleId === undefined} />
        ) : preview.isError ? (
          <p className="text-sm text-muted-foreground">{t.failed}</p>
        ) : (
          <p className="text-sm text-muted-foreground">{t.checking}</p>
        )}
      </div>
    </section>
  );
}

function ImpactReport({ preview, isNew }: { preview: RolePreview; isNew: boolean }) {
  const r = useRoleEditorMessages();
  const t = r.preview;
  const parts = [
    ...preview.gains.map((gain) => t.gain(gain.count, gain.permission)),
    ...preview.losses.map((loss) => t.lose(loss.count, loss.permission)),
  ];
  const reached = [...preview.gains, ...preview.losses].filter((impact) => impact.user_ids.length > 0);
  const names = namesBy(preview.users);
  const { held, released } = preview.two_factor;
  const counted = parts.length > 0 || held.count > 0 || released.count > 0;
  return (
    <>
      {preview.refusal.allowed ? null : (
        <Alert tone="danger" title={t.refusedTitle}>
          {preview.refusal.message}
        </Alert>
      )}
      {isNew ? (
        <p className="text-sm text-muted-foreground">{t.noMembers}</p>
      ) : parts.length === 0 ? (
        // Only the two-factor switch changed: its own lines below say what it does.
        held.count > 0 || released.count > 0 ? null : (
          <p className="text-sm text-muted-foreground">{t.unchanged}</p>
        )
      ) : (
        <p className="text-sm font-medium text-foreground">{t.sentence(parts)}</p>
      )}
      {isNew || reached.length === 0 ? null : (
        <ul className="flex flex-col gap-1 text-sm text-muted-foreground">
          {reached.map((impact) => (
            <ImpactLine key={`${impact.permission}`} impact={impact} names={names} />
          ))}
        </ul>
      )}
      {/* Counted, not named: the server says why (naming users takes users.view). */}
      {isNew || !counted || preview.people.allowed ? null : (
        <p className="text-sm text-muted-foreground">{preview.people.message}</p>
      )}
      {preview.outranks.count > 0 ? (
        <Alert tone="warning" title={t.outranksTitle(preview.outranks.count)}>
          {preview.outranks.user_ids.length > 0 ? (
            <>
              {t.firstUsers(
                namesOf(preview.outranks.user_ids, names),
                preview.outranks.count - shown(preview.outranks.user_ids),
              )}
              .{' '}
            </>
          ) : null}
          {t.outranksBody}
        </Alert>
      ) : null}
      {held.count > 0 ? (
        <Alert tone="warning" title={t.heldTitle(held.count)}>
          {held.user_ids.length > 0 ? (
            <>{t.firstUsers(namesOf(held.user_ids, names), held.count - shown(held.user_ids))}. </>
          ) : null}
          {t.heldBody}
        </Alert>
      ) : null}
      {released.count > 0 ? (
        <p className="text-sm text-muted-foreground">
          {t.released(released.count)}
          {released.user_ids.length > 0
            ? ` ${t.firstUsers(namesOf(released.user_ids, names), released.count - shown(released.user_ids))}.`
            : null}
        </p>
      ) : null}
    </>
  );
}

/** The preview names each user once (`users`); its parts list ids. */
export const namesBy = (users: readonly PreviewUser[]) => new Map(users.map((user) => [user.id, user.name]));
export const shown = (ids: readonly number[]) => Math.min(ids.length, NAMES_SHOWN);
export const namesOf = (ids: readonly number[], names: ReadonlyMap<number, string>) =>
  ids.slice(0, NAMES_SHOWN).map((id) => names.get(id) ?? `#${id}`);

export function ImpactLine({ impact, names }: { impact: PermissionImpact; names: ReadonlyMap<number, string> }) {
  const r = useRoleEditorMessages();
  return (
    <li className="min-w-0 break-words">
      <code className="font-mono text-xs text-foreground">{impact.permission}</code>
      {': '}
      <span>{r.preview.firstUsers(namesOf(impact.user_ids, names), impact.count - shown(impact.user_ids))}</span>
    </li>
  );
}
