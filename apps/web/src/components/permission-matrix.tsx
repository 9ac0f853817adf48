import { cn } from '@app/ui';
import { type CSSProperties, useId } from 'react';
import { useMessages } from '../i18n/messages';
import { useRoleEditorMessages } from '../i18n/role-editor-messages';
import { MatrixBox, MatrixCell, type PermissionMatrixRow } from './permission-matrix-cell';

export type { PermissionMatrixRow };

export interface PermissionMatrixProps {
  rows: readonly PermissionMatrixRow[];
  /** The permission names held; names the rows do not list are kept as they are on every change. */
  value: readonly string[];
  onChange?: (next: string[]) => void;
  /** Shows what is held, without controls (a role's page). */
  readOnly?: boolean;
  /** Names the whole matrix for assistive technology. */
  label: string;
  /** Ids of help or an error about the whole set (e.g. the form's field error). */
  'aria-describedby'?: string | undefined;
  /** Where a refused field puts focus: the first box the caller may change (react-hook-form's `ref`). */
  ref?: (element: HTMLInputElement | null) => void;
  className?: string;
}

interface Group {
  resource: string;
  cells: PermissionMatrixRow[];
}

function groupsOf(rows: readonly PermissionMatrixRow[]): { groups: Group[]; actions: string[] } {
  const groups = new Map<string, PermissionMatrixRow[]>();
  const actions: string[] = [];
  for (const row of rows) {
    groups.set(row.resource, [...(groups.get(row.resource) ?? []), row]);
    if (!actions.includes(row.action)) actions.push(row.action);
  }
  return { groups: [...groups].map(([resource, cells]) => ({ resource, cells })), actions };
}

const locked = (row: PermissionMatrixRow) => row.grantable === false;

/**
 * Permissions as resource rows × action columns, one box per permission that exists (a resource
 * without that action leaves its cell empty). A box the caller may not change (the server says
 * so per row, with the reason) stays focusable, reads as unavailable and gives the reason as a
 * tooltip and as its description; every permission's description shows under its resource's
 * row. Below `md` the same elements stack: one block per resource, its permissions a list of
 * labelled boxes with their descriptions, so a phone never scrolls sideways. Each row's "All"
 * ticks or clears only the boxes the caller may change.
 */
export function PermissionMatrix({
  rows,
  value,
  onChange,
  readOnly = false,
  label,
  'aria-describedby': describedBy,
  ref,
  className,
}: PermissionMatrixProps) {
  const m = useMessages();
  const r = useRoleEditorMessages();
  const id = useId();
  const held = new Set(value);
  const { groups, actions } = groupsOf(rows);
  const toggle = (names: readonly string[], on: boolean) => {
    const next = new Set(held);
    for (const name of names) {
      if (on) next.add(name);
      else next.delete(name);
    }
    // The catalogue's order, then whatever else was held (a name this console does not know).
    const known = rows.map((row) => row.name);
    onChange?.([...known.filter((name) => next.has(name)), ...value.filter((name) => !known.includes(name))]);
  };
  const focusTarget = readOnly ? undefined : rows.find((row) => !locked(row))?.name;
  const grid: CSSProperties = {
    gridTemplateColumns: `minmax(8.5rem, 1.2fr) repeat(${actions.length}, minmax(3.25rem, 1fr))${readOnly ? '' : ' minmax(3.25rem, auto)'}`,
  };
  const column = (action: string): CSSProperties => ({ gridColumnStart: actions.indexOf(action) + 2 });

  return (
    // biome-ignore lint/a11y/useSemanticElements: a grid container whose rows are subgrids; a fieldset's anonymous content box makes that layout unreliable
    <div
      role="group"
      aria-label={label}
      aria-describedby={describedBy}
      style={grid}
      className={cn('md:grid', className)}
    >
      {/* Column headings for the eye; every box carries its full name for a screen reader. */}
      <div
        aria-hidden="true"
        className="hidden border-b border-border bg-surface-muted/50 px-4 py-2 text-xs font-medium text-muted-foreground md:col-span-full md:grid md:grid-cols-subgrid md:items-end"
      >
        <span>{r.matrix.resource}</span>
        {actions.map((action) => (
          <span key={action} className="text-center text-balance">
            {r.matrix.actions[action] ?? action}
          </span>
        ))}
        {readOnly ? null : <span className="text-center">{r.matrix.all}</span>}
      </div>
      {groups.map(({ resource, cells }) => {
        const groupLabel = m.permissions.groups[resource] ?? resource;
        const changeable = cells.filter((cell) => !locked(cell)).map((cell) => cell.name);
        const ticked = changeable.filter((name) => held.has(name)).length;
        const headingId = `${id}-${resource}`;
        return (
          // biome-ignore lint/a11y/useSemanticElements: a subgrid row of the matrix (see above)
          <div
            key={resource}
            role="group"
            aria-labelledby={headingId}
            className="flex flex-wrap items-center border-b border-border px-4 py-3 last:border-b-0 md:col-span-full md:grid md:grid-cols-subgrid md:py-1"
          >
            <span id={headingId} className="flex-1 text-sm font-semibold text-foreground md:row-start-1">
              {groupLabel}
            </span>
            {!readOnly && changeable.length > 1 ? (
              <label
                htmlFor={`${headingId}-all`}
                className="flex cursor-pointer items-center gap-2 text-xs font-medium text-muted-foreground md:row-start-1 md:justify-self-center"
                style={{ gridColumnStart: -2 }}
              >
                <MatrixBox
                  id={`${headingId}-all`}
                  checked={ticked === changeable.length}
                  indeterminate={ticked > 0 && ticked < changeable.length}
                  aria-label={r.matrix.allOf(groupLabel)}
                  onToggle={(on) => toggle(changeable, on)}
                />
                <span aria-hidden="true" className="md:sr-only">
                  {r.matrix.all}
                </span>
              </label>
            ) : null}
            <ul className="mt-1 basis-full md:contents">
              {cells.map((cell) => (
                <MatrixCell
                  key={cell.name}
                  id={`${id}-${cell.name}`}
                  cell={cell}
                  held={held.has(cell.name)}
                  readOnly={readOnly}
                  style={column(cell.action)}
                  // The reason's tooltip opens towards the middle, so the card's edge never clips it.
                  tipAlign={actions.indexOf(cell.action) < actions.length / 2 ? 'start' : 'end'}
                  ref={cell.name === focusTarget ? ref : undefined}
                  onToggle={(on) => toggle([cell.name], on)}
                />
              ))}
            </ul>
            {/* Stacked, each box carries its description; in the grid they are read here, under the
                row, by the action's column heading (a screen reader hears them from the boxes). */}
            <div aria-hidden="true" className="hidden pt-0.5 pb-2 text-xs md:col-span-full md:row-start-2 md:block">
              <dl className="grid gap-x-6 gap-y-1 lg:grid-cols-2">
                {cells.map((cell) => (
                  <div key={cell.name} className="flex min-w-0 gap-1.5">
                    <dt className="shrink-0 font-medium text-foreground">
                      {r.matrix.actions[cell.action] ?? cell.action}
                    </dt>
                    <dd className="text-pretty text-muted-foreground">{cell.description}</dd>
                  </div>
                ))}
              </dl>
            </div>
          </div>
        );
      })}
    </div>
  );
}
