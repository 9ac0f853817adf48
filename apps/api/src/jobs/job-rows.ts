import type { AuditVia, BulkOperation, Job, JobKind, JobStatus } from '@app/contracts';

/** A `jobs` row as either driver returns it. */
export interface JobRow {
  id: number | string;
  kind: string;
  operation: string | null;
  params: string;
  dry_run: number | boolean;
  status: string;
  total: number | string;
  processed: number | string;
  changed: number | string;
  skipped: number | string;
  failed: number | string;
  counts: string;
  cursor_id: number | string | null;
  /** What the job's kind carries between chunks (JSON), or null. */
  state: string | null;
  error: string | null;
  actor_id: number | string | null;
  via_kind: string;
  via_name: string | null;
  ip: string | null;
  request_id: string | null;
  lease_owner: string | null;
  created_at: Date | string;
  started_at: Date | string | null;
  finished_at: Date | string | null;
}

export const JOB_COLUMNS =
  'id, kind, operation, params, dry_run, status, total, processed, changed, skipped, failed, counts, cursor_id, state, error, ' +
  'actor_id, via_kind, via_name, ip, request_id, lease_owner, created_at, started_at, finished_at';

const iso = (v: Date | string | null): string | null =>
  v === null ? null : (v instanceof Date ? v : new Date(v)).toISOString();

/** Stored JSON read back; a row someone edited by hand into non-JSON reads as empty, never throws. */
export function parseJson<T>(text: string, fallback: T): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

/** What a bulk job was asked to do, as stored in `params`. */
export interface BulkJobParams {
  active: boolean | null;
  /** The list query's filters and search, as validated at submission. */
  query: { q: string | null; filters: Record<string, unknown> };
  except: number[];
  /** The highest user id when the job was submitted: users created later are never swept in. */
  idBound: number;
  /** The scopes of the token it came through (null: all of its owner's, or not a token). */
  scopes: string[] | null;
  /** The token it came through, for the audit rows' `via`. */
  tokenId: number | null;
}

/** The job as the API answers it. */
export function toJob(row: JobRow): Job {
  const params = parseJson<Partial<BulkJobParams>>(row.params, {});
  const via: AuditVia = {
    kind: (['session', 'token', 'cli'] as const).find((k) => k === row.via_kind) ?? 'unknown',
    name: row.via_name,
  };
  return {
    id: Number(row.id),
    kind: row.kind as JobKind,
    operation: (row.operation as BulkOperation | null) ?? null,
    active: typeof params.active === 'boolean' ? params.active : null,
    dryRun: Boolean(row.dry_run),
    status: row.status as JobStatus,
    progress: {
      total: Number(row.total),
      processed: Number(row.processed),
      changed: Number(row.changed),
      skipped: Number(row.skipped),
      failed: Number(row.failed),
    },
    counts: parseJson<Record<string, number>>(row.counts, {}),
    error: row.error,
    created_at: iso(row.created_at) as string,
    started_at: iso(row.started_at),
    finished_at: iso(row.finished_at),
    actor_id: row.actor_id === null ? null : Number(row.actor_id),
    via,
  };
}
