import { AUDIT_COLUMN_KEYS, type AuditColumnKey, type AuditRow, auditListQuery } from '@app/contracts';
import { Badge } from '@app/ui';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { formatDate } from '../../i18n/dates';
import type { AuditPageMessages } from '../../i18n/audit-messages';
import { defineColumns } from '../../lib/resource-list/define-columns';
import { JobName } from '../jobs/job-name';
import { AUDIT_LOCKED_COLUMNS } from './audit-list-state';
import { actionLabel, actionTone, actorText, changesSummary, targetText, viaText } from './audit-format';

/** Targets shown by name in a cell; the rest are counted. */
const NAMED_TARGETS = 2;

interface CellOptions {
  m: AuditPageMessages;
  /** Names link to the user pages only for a viewer who may open them. */
  canOpenUsers: boolean;
}

function UserLink({ id, children, enabled }: { id: number; children: ReactNode; enabled: boolean }) {
  if (!enabled) return <span className="truncate">{children}</span>;
  return (
    <Link to={`/users/${id}`} className="truncate rounded-sm underline-offset-4 hover:underline">
      {children}
    </Link>
  );
}

/** A job's event names the job by its title, on two lines at most (its whole name in the tooltip). */
function JobTargets({ row, m }: { row: AuditRow; m: AuditPageMessages }) {
  const [id] = row.target_ids;
  if (id === undefined) return null;
  return (
    <span className="flex max-w-52 min-w-0 items-baseline gap-x-1.5">
      <JobName id={id} job={row.target_jobs[String(id)]} m={m} compact />
      {row.target_count > 1 ? (
        <span className="whitespace-nowrap text-muted-foreground">{m.audit.moreTargets(row.target_count - 1)}</span>
      ) : null}
    </span>
  );
}

function Targets({ row, m, canOpenUsers }: { row: AuditRow } & CellOptions) {
  if (row.target_count === 0) return <span className="text-muted-foreground">{m.audit.values.empty}</span>;
  if (row.target_type === 'job') return <JobTargets row={row} m={m} />;
  if (row.target_type !== 'user') return <span>{m.audit.targetsCount(row.target_count, row.target_type)}</span>;
  const shown = row.target_ids.slice(0, NAMED_TARGETS);
  const rest = row.target_count - shown.length;
  return (
    <span className="flex max-w-52 flex-wrap items-baseline gap-x-1.5">
      {shown.map((id, i) => (
        <span key={id} className="flex min-w-0">
          <UserLink id={id} enabled={canOpenUsers && row.target_names[String(id)] !== undefined}>
            {targetText(row, id, m)}
          </UserLink>
          {i < shown.length - 1 || rest > 0 ? ',' : null}
        </span>
      ))}
      {rest > 0 ? <span className="whitespace-nowrap text-muted-foreground">{m.audit.moreTargets(rest)}</span> : null}
    </span>
  );
}

/**
 * "Nov 28, 2026, 9:30 AM" as it is, or broken after the day when the column is narrow: never
 * inside the day or the time.
 */
function DayThenTime({ text }: { text: string }) {
  const cut = text.lastIndexOf(', ');
  if (cut < 0) return <span className="whitespace-nowrap">{text}</span>;
  return (
    <>
      <span className="whitespace-nowrap">{text.slice(0, cut + 1)}</span>{' '}
      <span className="whitespace-nowrap">{text.slice(cut + 2)}</span>
    </>
  );
}

/** The audit table's columns: the contract's column set, in its order. */
export function auditColumns(options: CellOptions) {
  const { m, canOpenUsers } = options;
  return defineColumns<AuditRow, AuditColumnKey>({
    keys: AUDIT_COLUMN_KEYS,
    labels: m.audit.columns,
    primary: 'occurred_at',
    sortable: auditListQuery.sorts,
    locked: AUDIT_LOCKED_COLUMNS,
    cells: {
      id: {
        render: (row) => <span className="text-muted-foreground tabular-nums">{row.id}</span>,
        className: 'w-14',
        skeleton: 'w-10',
      },
      occurred_at: {
        render: (row) => (
          <Link
            to={`/audit/${row.id}`}
            className="rounded-sm font-medium text-foreground tabular-nums underline-offset-4 hover:underline"
          >
            <time dateTime={row.occurred_at} title={formatDate(row.occurred_at, 'full', m.app.locale)}>
              <DayThenTime text={m.common.dateTime(row.occurred_at)} />
            </time>
          </Link>
        ),
        className: 'w-32',
        skeleton: 'w-32',
      },
      actor_name: {
        // A long name is cut, whole in its tooltip: the table must fit a 1280 px screen.
        render: (row) =>
          row.actor_id && row.actor_name ? (
            <span className="block max-w-36 truncate" title={row.actor_name}>
              <UserLink id={row.actor_id} enabled={canOpenUsers}>
                {row.actor_name}
              </UserLink>
            </span>
          ) : (
            <span className="text-muted-foreground">{actorText(row, m)}</span>
          ),
        className: 'max-w-48',
        skeleton: 'w-28',
      },
      action: {
        render: (row) => (
          // A long label ("Sealed the stored secrets … with a new key") wraps rather than widen the table.
          <Badge tone={actionTone(row.action)} className="max-w-48">
            {actionLabel(row.action, m)}
          </Badge>
        ),
        className: 'w-48',
        skeleton: 'w-28',
      },
      target_ids: {
        render: (row) => <Targets row={row} {...options} />,
        skeleton: 'w-36',
      },
      changes: {
        render: (row) => {
          const text = changesSummary(row, m);
          return text ? (
            <span className="block break-words sm:line-clamp-2 sm:max-w-60" title={text}>
              {text}
            </span>
          ) : (
            <span className="text-muted-foreground">{m.audit.values.empty}</span>
          );
        },
        className: 'w-56',
        skeleton: 'w-40',
      },
      ip: {
        render: (row) => (
          <span className="font-mono text-xs text-muted-foreground">{row.ip ?? m.audit.values.empty}</span>
        ),
        skeleton: 'w-24',
      },
      via: {
        // A token's name can be long: it wraps (in the table within two lines, whole in the tooltip).
        render: (row) => {
          const text = viaText(row.via, m);
          return (
            <span className="block break-words text-muted-foreground sm:line-clamp-2 sm:max-w-48" title={text}>
              {text}
            </span>
          );
        },
        className: 'w-36',
        skeleton: 'w-24',
      },
    },
  });
}
