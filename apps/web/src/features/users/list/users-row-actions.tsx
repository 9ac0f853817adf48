import type { UserListRow } from '@app/contracts';
import {
  Button,
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@app/ui';
import { Ellipsis, Eye, Pencil } from 'lucide-react';
import { createContext, use, useRef } from 'react';
import { Link } from 'react-router';
import { useMessages } from '../../../i18n/messages';
import { ACTION_ICONS, DESTRUCTIVE_ACTIONS, rowActionsFor, type UserAction } from './user-actions';

export interface RowActionRequest {
  action: UserAction;
  row: UserListRow;
  /** Where focus goes back when the confirmation closes. */
  returnFocusTo: HTMLElement | null;
}

/** How a row's menu asks for its action to be confirmed (`RowActionsScope` answers). */
export const RowActionRequests = createContext<(request: RowActionRequest) => void>(() => {});

/**
 * A row's "…" menu: open, edit, and the state changes the server offers the caller on this user
 * (the row's `actions`, nothing else), each confirmed first.
 */
export function UsersRowActions({ row }: { row: UserListRow }) {
  const m = useMessages();
  const t = m.usersList.rowActions;
  const actions = rowActionsFor(row);
  const canEdit = row.actions.update.allowed;
  const trigger = useRef<HTMLButtonElement>(null);
  const onRequest = use(RowActionRequests);

  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button ref={trigger} variant="ghost" size="icon-xs" aria-label={t.open(row.name)}>
          <Ellipsis aria-hidden="true" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent>
        <DropdownMenuItem asChild>
          <Link to={`/users/${row.id}`}>
            <Eye aria-hidden="true" />
            {t.view}
          </Link>
        </DropdownMenuItem>
        {canEdit ? (
          <DropdownMenuItem asChild>
            <Link to={`/users/${row.id}/edit`}>
              <Pencil aria-hidden="true" />
              {t.edit}
            </Link>
          </DropdownMenuItem>
        ) : null}
        {actions.length > 0 ? <DropdownMenuSeparator /> : null}
        {actions.map(({ action, refusal }) => {
          const Icon = ACTION_ICONS[action];
          return (
            <DropdownMenuItem
              key={action}
              tone={DESTRUCTIVE_ACTIONS.has(action) ? 'danger' : 'default'}
              unavailableReason={refusal}
              onSelect={() => onRequest({ action, row, returnFocusTo: trigger.current })}
            >
              <Icon aria-hidden="true" />
              {t[action]}
            </DropdownMenuItem>
          );
        })}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
