import type { CapabilityMap, Job, JobShow, Permission } from '@app/contracts';
import type { QueryFilters, UseMutationOptions } from '@tanstack/react-query';
import type { LucideIcon } from 'lucide-react';
import type { ComponentType } from 'react';

/** What the dialogs say about one bulk command, in the resource's words. */
export interface BulkText {
  /** The action as a verb before "all N matching users" / "N users" ("Deactivate", "Give admin to"). */
  verb: string;
  title: (count: number) => string;
  description: string;
  /** The dry run's finding ("40 will be deactivated"). */
  affected: (count: number) => string;
  confirm: (count: number) => string;
  /** The toast once done. */
  done: (count: number) => string;
  /** A warning the dry run's answer calls for (an invitation that would reach nobody), shown before confirming and with the toast. */
  notice?: (answer: BulkAnswerFacts) => string | null;
}

/** What a bulk answer (a report, or a job) may say beside its counts. */
export interface BulkAnswerFacts {
  invitations?: { mailed: boolean; sent: number } | null;
}

/** A bulk action as it is run: the request's operation part, and its words. */
export interface BulkCommand<Op> {
  operation: Op;
  text: BulkText;
}

/** The step that asks for what a command needs before its dry run (the role to give). */
export interface BulkAskProps<Op, Data> {
  /** How many records it is for (the selection, or every match). */
  count: number;
  /** The list's current answer (the roles it offers, say). */
  data: Data | undefined;
  onChoose: (command: BulkCommand<Op>) => void;
  onClose: () => void;
}

interface BulkActionBase<State> {
  key: string;
  label: string;
  icon: LucideIcon;
  /** Losing data (or access) is worth a red button and a red confirmation. */
  destructive?: boolean;
  /**
   * The permission the caller must hold for the bar to offer it: a page-level offer, from the
   * capability map. The server still judges every record (the dry run says who would be skipped).
   */
  permission: Permission;
  /** Whether the rows this view can show can take it (the trash offers restore, not deactivate). */
  fits?: (state: State) => boolean;
}

/** One bulk action of a resource: a command at once, or a step that asks first. */
export type BulkAction<Op, State, Data> = BulkActionBase<State> &
  ({ command: BulkCommand<Op> } | { ask: ComponentType<BulkAskProps<Op, Data>> });

/** How a report names a record it skipped. */
export interface RecordName {
  name: string;
  detail?: string;
}

/**
 * What the selection's dialogs need of background jobs: an answer of 202 {job} is followed here
 * (its progress, then its counts and examples per reason), then handed to whoever follows jobs.
 */
export interface BulkJobs {
  /** A job as `jobs.show` answers it, asked again every `pollMs` while it moves. */
  useJob: (id: number | null, pollMs?: number) => { data: JobShow | undefined; error: unknown };
  /** Stops a dry run nobody waits for any more. */
  useCancel: () => (id: number) => void;
  /** A real job was submitted: its page and the header follow it from here. */
  useHandOff: () => (job: Job) => void;
  Progress: ComponentType<{ job: Job }>;
  Skips: ComponentType<{ data: JobShow }>;
}

/** A resource's bulk actions, declared once; the list kit offers, checks, runs and follows them. */
export interface BulkDeclaration<Op, Row, State, Data> {
  actions: ReadonlyArray<BulkAction<Op, State, Data>>;
  /** Names for the records a dry run skipped: from the rows seen, else looked up (the first few). */
  names: {
    of: (row: Row) => RecordName;
    useLookup?: (ids: readonly number[]) => ReadonlyMap<number, RecordName>;
  };
  jobs: BulkJobs;
}

/** A synchronous dry run's or run's answer for a list of ids. */
export interface BulkReportLike extends BulkAnswerFacts {
  affected: readonly number[];
  skipped: ReadonlyArray<{ id: number; code: string; message: string }>;
}

/** Every record a list query matches, less those left out: how "all N matching" is sent. */
export interface BulkSelection<F> {
  query: { q?: string; filters: F };
  except: number[];
}

/** The request: the command's operation over picked ids (a report comes back) or every match (a job). */
export type BulkVariables<Op, F> = Op & { dryRun: boolean } & ({ ids: number[] } | { selection: BulkSelection<F> });

/** How a page hands its resource's bulk actions to the list controller. */
export interface ResourceBulkOptions<Op, Row, State, Data, F, Answer, E> {
  declaration: BulkDeclaration<Op, Row, State, Data>;
  /** The caller's capabilities: the bar offers what they hold. */
  can: CapabilityMap;
  /** The resource's bulk procedure: ids answer with a report, a selection with 202 {job}. */
  submit: UseMutationOptions<Answer, E, BulkVariables<Op, F>>;
  /** The queries a change makes stale (the resource's lists and records). */
  refresh: QueryFilters;
}

/** The actions the bar offers in this view to this caller, in the declaration's order. */
export function offeredBulkActions<Op, State, Data>(
  actions: ReadonlyArray<BulkAction<Op, State, Data>>,
  state: State,
  can: CapabilityMap,
): Array<BulkAction<Op, State, Data>> {
  return actions.filter((action) => can[action.permission] && (action.fits?.(state) ?? true));
}
