import { Badge } from '@app/ui';
import { createContext, type ReactNode, useContext, useMemo } from 'react';
import { Link } from 'react-router';
import { useMessages } from '../../../i18n/messages';
import { roleMembersHref } from '../../../lib/resource-list/list-links';

/**
 * The roles the list answered with (`availableRoles`), by name: a row carries its role names, and
 * each badge links to that role's members through its id.
 */
const RoleIdsContext = createContext<ReadonlyMap<string, number>>(new Map());

/** Gives the badges inside it the ids of the roles the list answered with. */
export function RoleIdsScope({
  roles,
  children,
}: {
  roles: ReadonlyArray<{ id: number; name: string }> | undefined;
  children: ReactNode;
}) {
  const ids = useMemo(() => new Map((roles ?? []).map((role) => [role.name, role.id])), [roles]);
  return <RoleIdsContext value={ids}>{children}</RoleIdsContext>;
}

/** A row's role names as small badges, each opening the users list filtered by that role. */
export function RoleBadges({ names }: { names: readonly string[] }) {
  const m = useMessages();
  const ids = useContext(RoleIdsContext);
  if (names.length === 0) return <span className="text-muted-foreground">{m.usersList.table.noRoles}</span>;
  return (
    // Not a list: the cards of a phone are list items already, one per user.
    <span className="flex max-w-64 flex-wrap gap-1">
      {names.map((name) => {
        const id = ids.get(name);
        return (
          <span key={name} className="min-w-0">
            {id === undefined ? (
              <Badge tone="neutral" title={name} className="max-w-48">
                <span className="truncate">{name}</span>
              </Badge>
            ) : (
              <Link
                to={roleMembersHref(id)}
                title={m.usersList.table.roleMembers(name)}
                className="rounded-full focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
              >
                <Badge tone="neutral" className="max-w-48 hover:text-foreground hover:ring-foreground/30">
                  {/* A long name is cut with an ellipsis on one line; the link's title says it whole. */}
                  <span className="truncate">{name}</span>
                </Badge>
              </Link>
            )}
          </span>
        );
      })}
    </span>
  );
}
