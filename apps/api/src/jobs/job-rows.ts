import type {
  AuditVia,
  BulkOperation,
  ImportFile,
  ImportMode,
  ImportSummary,
  Job,
  JobKind,
  JobStatus,
} from '@app/contracts';
import { nothingToUndo } from '../domain/jobs.rules.js';

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
  /** addRole / removeRole: the role, and its name when the job was submitted (for the job's pages). */
  roleId?: number | null;
  roleName?: string | null;
  /** setAttribute: the attribute's key, its label when the job was submitted, and the value (null clears). */
  attribute?: string;
  attributeLabel?: string;
  /** The list query's filters and search, as validated at submission. */
  query: { q: string | null; filters: Record<string, unknown> };
  except: number[];
  /** invite: whether its links were to go by mail (SMTP_URL set at submission). */
  mailed?: boolean;
  /** The highest user id when the job was submitted: users created later are never swept in. */
  idBound: number;
  /** The scopes of the token it came through (null: all of its owner's, or not a token). */
  scopes: string[] | null;
  /** The token it came through, for the audit rows' `via`. */
  tokenId: number | null;
}

/** What an import job was asked to do, as stored in `params`. */
export interface ImportJobParams {
  uploadId: number;
  /** The file as read at submission (its columns, first rows): what the job's page shows. */
  file: ImportFile;
  mode: ImportMode;
  activate: boolean;
  restore: boolean;
  /** The default roles by name, as asked, and their ids then. */
  defaultRoles: string[];
  defaultRoleIds: number[];
  scopes: string[] | null;
  tokenId: number | null;
}

/** What an import job carries between chunks (and keeps once finished). */
export interface ImportJobState {
  outcomes: ImportSummary['outcomes'];
  fields: Record<string, number>;
  /** Until when the import can be undone (set when it finishes), and the undo job once asked. */
  undoUntil?: string | null;
  undoneBy?: number | null;
  /** A dry run: the active administrators its earlier chunks would have taken away. */
  adminsGone?: number;
}

/** An undo job's `params`. */
export interface UndoJobParams {
  of: number;
  /** Whether the import created accounts (the undo removes them) and updated some (it puts them back). */
  changes?: { created: boolean; updated: boolean };
  /** Undoing a bulk job: its operation, and the change that reverses it (the role it gave or took). */
  bulk?: {
    undoes: BulkOperation;
    operation: BulkOperation;
    active: boolean | null;
    roleId: number | null;
    roleName: string | null;
    scopes: string[] | null;
    tokenId: number | null;
  };
}

/** What an import's undo carries between chunks (and keeps): the accounts it removed and put back so far. */
export interface UndoJobState {
  removed: number;
  restored: number;
  /** A dry run: the active administrators its earlier chunks would have taken away. */
  adminsGone?: number;
}

function importOf(params: Partial<ImportJobParams>, state: Partial<ImportJobState>): ImportSummary | null {
  if (!params.file || !params.mode) return null;
  return {
    file: params.file,
    mode: params.mode,
    activate: params.activate ?? true,
    restore: params.restore ?? false,
    defaultRoles: params.defaultRoles ?? [],
    outcomes: { create: 0, update: 0, unchanged: 0, skip: 0, error: 0, ...state.outcomes },
    fields: state.fields ?? {},
  };
}

function undoOf(
  row: JobRow,
  params: Partial<ImportJobParams & UndoJobParams>,
  state: Partial<ImportJobState & UndoJobState>,
) {
  if (row.kind === 'undo') {
    // An import's undo tells its removals from its put-backs; a bulk job's undo puts back only.
    const accounts =
      params.bulk === undefined && typeof state.removed === 'number' && typeof state.restored === 'number'
        ? { removed: state.removed, restored: state.restored }
        : null;
    return { of: params.of ?? null, until: null, by: null, accounts };
  }
  if (nothingToUndo({ dryRun: Boolean(row.dry_run), changed: Number(row.changed) }) !== null) return null;
  // A bulk job that can be undone says until when (set when it ends); an import always says.
  if (row.kind === 'bulk' && !state.undoUntil) return null;
  if (row.kind !== 'import' && row.kind !== 'bulk') return null;
  return { of: null, until: state.undoUntil ?? null, by: state.undoneBy ?? null };
}

/** A setAttribute job's attribute, by the label kept at submission (the key when none was kept). */
function attributeOf(row: JobRow, params: Partial<BulkJobParams>): Job['attribute'] {
  if (row.operation !== 'setAttribute' || typeof params.attribute !== 'string') return null;
  const label = typeof params.attributeLabel === 'string' ? params.attributeLabel : params.attribute;
  return { key: params.attribute, label };
}

/**
 * A job as stored: everything an answer says of it but what it ran on, which depends on who
 * reads it (jobs/job-target.ts `answerJob` adds it).
 */
export type StoredJob = Omit<Job, 'target'>;

/** The job as stored, for an answer to complete with its target (jobs/job-target.ts). */
export function toJob(row: JobRow): StoredJob {
  const params = parseJson<Partial<BulkJobParams & ImportJobParams & UndoJobParams>>(row.params, {});
  const state = parseJson<Partial<ImportJobState & UndoJobState>>(row.state ?? '{}', {});
  const via: AuditVia = {
    kind: (['session', 'token', 'cli'] as const).find((k) => k === row.via_kind) ?? 'unknown',
    name: row.via_name,
  };
  return {
    id: Number(row.id),
    kind: row.kind as JobKind,
    operation: (row.operation as Job['operation']) ?? null,
    active: typeof params.active === 'boolean' ? params.active : null,
    role:
      typeof params.roleId === 'number'
        ? { id: params.roleId, name: typeof params.roleName === 'string' ? params.roleName : `#${params.roleId}` }
        : null,
    attribute: attributeOf(row, params),
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
    import: row.kind === 'import' ? importOf(params, state) : null,
    undo: undoOf(row, params, state),
    invitations:
      row.operation === 'invite' && row.kind === 'bulk'
        ? { mailed: params.mailed === true, sent: params.mailed === true ? Number(row.changed) : 0 }
        : null,
  };
}
