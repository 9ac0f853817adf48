import { Alert, Button, Spinner } from '@app/ui';
import { RefreshCw } from 'lucide-react';
import { useEffect, useRef } from 'react';

/** One field the caller's form and the server's version disagree on, as the banner shows it. */
export interface ConflictRow {
  field: string;
  label: string;
  /** The server's value now. */
  theirs: string;
  /** The caller's value; null when they did not edit the field (theirs is kept). */
  mine: string | null;
}

/**
 * Where a form stands after a save was refused with 409: reading the server's version, comparing
 * it with the form (or failing to read it), then rebased on it with or without the caller's edits.
 */
export type ConflictState =
  | { stage: 'reading'; message: string }
  | { stage: 'unread'; message: string; error: string }
  | { stage: 'compared'; message: string; rows: ConflictRow[] }
  | { stage: 'rebased'; keptEdits: boolean }
  | null;

export interface ConflictBannerStrings {
  title: string;
  reading: string;
  /** Reading the server's version failed (the reason follows), and the button that asks again. */
  unread: string;
  retry: string;
  /** The table's caption and headings. */
  caption: string;
  field: string;
  theirs: string;
  mine: string;
  /** In "Yours" for a field the caller did not edit. */
  notEdited: string;
  /** No field differs: the server's change and the caller's edits agree. */
  noDifference: string;
  keep: string;
  discard: string;
  keptTitle: string;
  kept: string;
  discardedTitle: string;
}

export interface ConflictBannerProps {
  conflict: ConflictState;
  /** Reads the server's version again (after a failed read). */
  onRetry: () => void;
  /** Loads the server's version with the caller's edited fields on top. */
  onKeep: () => void;
  /** Loads the server's version as it is. */
  onDiscard: () => void;
  strings: ConflictBannerStrings;
}

/**
 * A 409: someone saved the record after the form was opened. The banner shows, field by field,
 * the server's value beside the caller's, then offers to carry on from the server's version
 * keeping the caller's edits on top, or to take theirs. Focus moves to it at each step, so a
 * keyboard reaches its buttons and a screen reader reads the table in order.
 */
export function ConflictBanner({ conflict, onRetry, onKeep, onDiscard, strings: s }: ConflictBannerProps) {
  const box = useRef<HTMLDivElement>(null);
  const stage = conflict?.stage;
  useEffect(() => {
    if (stage === 'compared' || stage === 'rebased' || stage === 'unread') box.current?.focus();
  }, [stage]);
  if (!conflict) return null;
  return (
    <div ref={box} tabIndex={-1} className="rounded-lg outline-none">
      <ConflictAlert conflict={conflict} onRetry={onRetry} onKeep={onKeep} onDiscard={onDiscard} strings={s} />
    </div>
  );
}

function ConflictAlert({
  conflict,
  onRetry,
  onKeep,
  onDiscard,
  strings: s,
}: ConflictBannerProps & { conflict: NonNullable<ConflictState> }) {
  if (conflict.stage === 'rebased') {
    return (
      <Alert tone="info" title={conflict.keptEdits ? s.keptTitle : s.discardedTitle}>
        {conflict.keptEdits ? s.kept : null}
      </Alert>
    );
  }
  if (conflict.stage === 'reading') {
    return (
      <Alert tone="warning" title={s.title}>
        <p>{conflict.message}</p>
        <p className="mt-2 flex items-center gap-2 text-muted-foreground">
          <Spinner className="size-3.5" />
          {s.reading}
        </p>
      </Alert>
    );
  }
  if (conflict.stage === 'unread') {
    return (
      <Alert
        tone="warning"
        title={s.title}
        actions={
          <Button size="sm" variant="secondary" onClick={onRetry}>
            <RefreshCw aria-hidden="true" />
            {s.retry}
          </Button>
        }
      >
        <p>{conflict.message}</p>
        <p className="mt-1">
          {s.unread} {conflict.error}
        </p>
      </Alert>
    );
  }
  return (
    <Alert
      tone="warning"
      title={s.title}
      actions={
        <>
          <Button size="sm" variant="secondary" onClick={onKeep}>
            {s.keep}
          </Button>
          <Button size="sm" variant="ghost" onClick={onDiscard}>
            {s.discard}
          </Button>
        </>
      }
    >
      {/* The title says what the server's sentence would ("changed by someone else"); the table says the rest. */}
      {conflict.rows.length > 0 ? (
        <ConflictTable rows={conflict.rows} strings={s} />
      ) : (
        <p className="mt-2">{s.noDifference}</p>
      )}
    </Alert>
  );
}

/**
 * Field · theirs · yours, one row per field that differs; long values wrap inside their cell. On
 * a phone each row stacks (the field's name above its two values, each labelled), so nothing is
 * squeezed into three narrow columns; the explicit roles keep it a table for assistive tech
 * whatever its display.
 */
function ConflictTable({ rows, strings: s }: { rows: readonly ConflictRow[]; strings: ConflictBannerStrings }) {
  return (
    // biome-ignore lint/a11y/noRedundantRoles: a phone lays the table out as blocks, which drops its implicit roles in some browsers.
    <table role="table" className="mt-3 w-full border-collapse text-left text-sm">
      <caption className="mb-1 text-left text-foreground/80">{s.caption}</caption>
      <thead className="max-sm:sr-only">
        <tr className="border-b border-warning/30 text-xs text-muted-foreground">
          <th scope="col" className="py-1.5 pr-3 font-medium">
            {s.field}
          </th>
          <th scope="col" className="py-1.5 pr-3 font-medium">
            {s.theirs}
          </th>
          <th scope="col" className="py-1.5 font-medium">
            {s.mine}
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr
            key={row.field}
            // biome-ignore lint/a11y/noRedundantRoles: see the table's.
            role="row"
            className="border-b border-warning/20 align-top last:border-b-0 max-sm:grid max-sm:grid-cols-2 max-sm:gap-x-3 max-sm:py-1.5"
          >
            <th
              scope="row"
              // biome-ignore lint/a11y/noRedundantRoles: see the table's.
              role="rowheader"
              className="py-1.5 pr-3 font-medium break-words text-foreground max-sm:col-span-2 max-sm:pb-0.5"
            >
              {row.label}
            </th>
            {/* biome-ignore lint/a11y/noRedundantRoles: see the table's. */}
            <td role="cell" className="py-1.5 pr-3 break-words text-foreground max-sm:py-0">
              <PhoneLabel text={s.theirs} />
              {row.theirs}
            </td>
            {/* biome-ignore lint/a11y/noRedundantRoles: see the table's. */}
            <td role="cell" className="py-1.5 break-words max-sm:py-0">
              <PhoneLabel text={s.mine} />
              {row.mine === null ? (
                <span className="text-muted-foreground italic">{s.notEdited}</span>
              ) : (
                <span className="font-medium text-foreground">{row.mine}</span>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The column's heading above a value on a phone, where the header row is hidden; the table's headers name it for assistive tech. */
function PhoneLabel({ text }: { text: string }) {
  return (
    <span aria-hidden="true" className="block text-xs text-muted-foreground sm:hidden">
      {text}
    </span>
  );
}
