import type { Permission } from '@app/contracts';
import type { Model, ModelStatic, Transaction, WhereOptions } from 'sequelize';
import type { HandlerContext } from '../context.js';
import type { Database } from '../db/database.js';
import type { JobItem } from '../jobs/job-store.js';

/**
 * What a list resource declares to get bulk actions on both doors: over a list of ids in the
 * request (all or none, a dry run rolled back), or over every row its list query matches as a
 * background job (frozen at submission, walked in id order one chunk per transaction, its
 * submitter's permissions asked again at each chunk). The kit (bulk-request.ts,
 * selection-job.ts) runs both; the resource supplies its rules and writes, never the machinery.
 */

/** A bulk request as every resource's contract shapes it (contracts: `bulkInputShape`). */
export interface BulkRequestInput<Operation extends string, Query> {
  operation: Operation;
  ids?: number[] | undefined;
  selection?: { query: Query; except: number[] } | undefined;
  dryRun: boolean;
}

/** A row left as it was, and why (its code from the resource's contract, a sentence for people). */
export interface BulkSkip {
  id: number;
  code: string;
  message: string;
}

/**
 * Rows a batch changed alike: the fields it changed, before and after (a job's report names each
 * row). `erased`: the rows are gone (no version to keep).
 */
export interface BulkChange {
  ids: number[];
  from: Record<string, unknown>;
  to: Record<string, unknown>;
  erased?: boolean;
}

/** How one batch went: the ids changed (or, in a dry run, that would be), and those skipped. */
export interface BulkBatchOutcome {
  affected: number[];
  skipped: BulkSkip[];
  /** Affected ids already as asked (applied, nothing changed): not counted as changed. */
  unchanged: number[];
  /** What a real batch changed, in groups of rows changed alike, when its operation says (none in a dry run). */
  changes?: BulkChange[];
}

export interface BulkBatchOptions<Row, State> {
  dryRun: boolean;
  /** Joins the audit rows' context: a job's id, for its chunks. */
  context?: Record<string, unknown>;
  /** A dry-run job's chunk: its rows as the chunk read them (a dry run changes nothing, so it locks nothing). */
  read?: readonly Row[];
  /** What the earlier chunks of a dry-run job left for this one (undefined: the first, or not a job). */
  state?: State | undefined;
}

/** The list query of a selection: the resource's own, its where clause and its read hints. */
export interface BulkSelectionSource<Query, Stored> {
  /** The model the selection walks (its `id` is the walk's order and bound). */
  model(db: Database): ModelStatic<Model>;
  /** Refuses a query the caller may not run at all (throws its 403), as the list would. */
  allow(ctx: HandlerContext, query: Query): void;
  /**
   * The query as the caller may run it, judged where that needs the database (a custom attribute
   * filter against the attributes the caller may see; 422 otherwise), before it is stored.
   */
  judge?(ctx: HandlerContext, query: Query): Promise<Query>;
  /** The query as a job stores it (plain JSON), and back as the list engine reads it in id order. */
  freeze(query: Query): Stored;
  thaw(stored: Stored): Query;
  /** The query's condition with `bounds` (the id bound, the cursor, the rows left out). */
  where(db: Database, query: Query, bounds: WhereOptions): WhereOptions;
  /**
   * Columns a chunk reads for its batch (`read`), and the index hints of its walk in id order
   * (asked at each chunk: the best index depends on how many rows the trash holds).
   */
  columns: readonly string[];
  hints(db: Database, query: Query): Promise<object>;
  /**
   * How many rows the query matches, as the list counts them (from counters and list keys where
   * they answer): the job's total when no row is left out and none was added after its bound.
   * Without it, the rows are counted.
   */
  count?(db: Database, query: Query): Promise<number>;
}

export interface BulkDeclaration<
  Operation extends string,
  Input extends BulkRequestInput<Operation, Query>,
  Query,
  Stored,
  Args,
  Row,
  Report,
  State = undefined,
> {
  /** Stored on its jobs (`params.resource`): a job's chunks come back to this declaration by it. */
  resource: string;
  selection: BulkSelectionSource<Query, Stored>;
  /**
   * The request-wide arguments (a role to give, a status to set), refusing the whole request by
   * throwing its 403/422.
   */
  prepare(ctx: HandlerContext, tx: Transaction | undefined, input: Input): Promise<Args>;
  /**
   * The arguments as a job stores them, beside the kit's own keys in its `params` (so the job's
   * page reads them as it reads any job's): plain JSON, no key of the kit's own (`JOB_KEYS` in selection-job.ts).
   */
  store(args: Args): Record<string, unknown>;
  /**
   * What the submission's audit row keeps of the stored arguments, when not all of them (a value
   * the audit's readers must not all see); absent: all of them.
   */
  audited?(args: Args): Record<string, unknown>;
  /** Asked again at each chunk, from what `store` kept: the arguments now, or the sentence the job fails with. */
  recheck(
    ctx: HandlerContext,
    tx: Transaction,
    stored: Readonly<Record<string, unknown>>,
  ): Promise<{ args: Args } | { fail: string }>;
  /** What a job of `operation` needs its submitter to hold at every chunk (from the domain). */
  permissions(operation: Operation): Permission[];
  /** Judges `ids` under the resource's rules and, unless a dry run, applies and records the change. */
  batch(
    ctx: HandlerContext,
    tx: Transaction,
    work: { operation: Operation; args: Args; ids: readonly number[] },
    options: BulkBatchOptions<Row, State>,
  ): Promise<{ outcome: BulkBatchOutcome; state?: State }>;
  /** A request over ids: its answer, from the batch's outcome. */
  report(ctx: HandlerContext, input: Input, outcome: BulkBatchOutcome): Report;
  /** A job's report lines for a chunk's skipped rows (what the job's page lists). */
  reportItems(db: Database, tx: Transaction, skipped: readonly BulkSkip[]): Promise<JobItem[]>;
  /** Whether a finished job of `operation` (its stored arguments beside) can be undone. */
  undoable(operation: Operation, stored: Readonly<Record<string, unknown>>): boolean;
}

/** A declaration of any resource, as the kit's registry holds them. */
// biome-ignore lint/suspicious/noExplicitAny: the registry holds declarations of unrelated types; each is used with its own.
export type AnyBulkDeclaration = BulkDeclaration<string, any, any, any, any, any, any, any>;

/** The validated input and the answer of a declaration's requests over ids. */
export type BulkInputOf<D extends AnyBulkDeclaration> = Parameters<D['report']>[1];
export type BulkReportOf<D extends AnyBulkDeclaration> = ReturnType<D['report']>;
