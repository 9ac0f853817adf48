import { Badge, Skeleton } from '@app/ui';
import { Database, Server } from 'lucide-react';
import type { ReactNode } from 'react';
import { useStatusMessages } from '../../i18n/status-messages';
import type { RouterOutputs } from '../../lib/api-types';

type ReadyReport = RouterOutputs['system']['ready'];

function StatusRow({
  icon,
  label,
  detail,
  status,
}: {
  icon: ReactNode;
  label: string;
  detail?: ReactNode;
  status: ReactNode;
}) {
  return (
    <li className="flex items-center gap-3 px-5 py-4">
      <div className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-surface-muted text-muted-foreground ring-1 ring-border ring-inset [&_svg]:size-4">
        {icon}
      </div>
      <div className="min-w-0 flex-1">
        <p className="text-sm font-medium text-foreground">{label}</p>
        {detail ? <p className="truncate text-xs text-muted-foreground">{detail}</p> : null}
      </div>
      <div className="shrink-0">{status}</div>
    </li>
  );
}

export function ServiceStatusRows({ report }: { report: ReadyReport }) {
  const m = useStatusMessages();
  return (
    <ul className="divide-y divide-border border-t border-border">
      <StatusRow
        icon={<Server aria-hidden="true" />}
        label={m.status.api}
        detail={<span className="font-mono">{m.status.apiVersion(report.version)}</span>}
        status={
          <Badge tone="success" dot>
            {m.status.apiReachable}
          </Badge>
        }
      />
      <StatusRow
        icon={<Database aria-hidden="true" />}
        label={m.status.database}
        status={
          report.checks.database === 'ok' ? (
            <Badge tone="success" dot>
              {m.status.databaseReachable}
            </Badge>
          ) : (
            <Badge tone="danger" dot>
              {m.status.databaseUnreachable}
            </Badge>
          )
        }
      />
    </ul>
  );
}

export function ServiceStatusSkeleton({ label }: { label: string }) {
  return (
    <div role="status" aria-label={label} className="divide-y divide-border border-t border-border">
      {[0, 1].map((row) => (
        <div key={row} className="flex items-center gap-3 px-5 py-4">
          <Skeleton className="size-9 rounded-lg" />
          <div className="flex-1 space-y-2">
            <Skeleton className="h-3.5 w-24" />
            <Skeleton className="h-3 w-32" />
          </div>
          <Skeleton className="h-5 w-20 rounded-full" />
        </div>
      ))}
      <div className="flex h-14 items-center justify-between px-5">
        <Skeleton className="h-3 w-40" />
        <Skeleton className="h-3 w-16" />
      </div>
    </div>
  );
}
