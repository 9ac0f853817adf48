import type { AuditItem } from '@app/contracts';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { AuditPageMessages } from '../../i18n/audit-messages';
import { valueText } from './audit-format';

/** The events a job writes about itself: its target is the job (`target_type: job`). */
const JOB_ACTIONS = new Set(['job.submit', 'job.finish', 'job.cancel']);

export const isJobEvent = (event: Pick<AuditItem, 'action' | 'target_type'>): boolean =>
  event.target_type === 'job' && JOB_ACTIONS.has(event.action);

/**
 * What a job's events record that its name already says (what it does, to whom, on which
 * selection: the job's title, from `target_jobs`) or that is the job's own bookkeeping (the
 * highest user id when it was frozen, the token's id, which the event's "Through" names).
 */
const SAID_ELSEWHERE = new Set([
  'kind',
  'operation',
  'resource',
  'query',
  'idBound',
  'tokenId',
  'active',
  'roleId',
  'roleName',
  'attribute',
  'attributeLabel',
  'sensitivity',
  'target',
]);

interface Item {
  id: string;
  term: string;
  description: ReactNode;
}

type Json = Record<string, unknown>;
const isRecord = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const count = (value: unknown): number => (typeof value === 'number' ? value : 0);

/** A job's progress as the event recorded it: how far it got, and what it changed, skipped and failed on. */
function progressItems(progress: Json, dryRun: boolean, m: AuditPageMessages): Item[] {
  const t = m.audit.job;
  const [changed, skipped, failed] = [progress.changed, progress.skipped, progress.failed].map(count) as [
    number,
    number,
    number,
  ];
  return [
    {
      id: 'processed',
      term: t.processed,
      description: t.processedOf(count(progress.processed), count(progress.total)),
    },
    {
      id: 'outcome',
      term: t.outcome,
      description: dryRun ? t.wouldCounts(changed, skipped, failed) : t.counts(changed, skipped, failed),
    },
  ];
}

/** One recorded key in words; null when the job's name already says it. */
function itemOf(key: string, value: unknown, context: Json, m: AuditPageMessages, action: string): Item | null {
  const t = m.audit.job;
  switch (key) {
    case 'dryRun':
      return { id: key, term: t.run, description: value === true ? t.dryRun : t.realRun };
    case 'status': {
      const status = m.jobs.statuses[value as keyof typeof m.jobs.statuses] ?? String(value);
      return { id: key, term: action === 'job.cancel' ? t.statusWhenCancelled : t.ended, description: status };
    }
    case 'total':
      return { id: key, term: context.kind === 'import' ? t.lines : t.matched, description: t.number(count(value)) };
    case 'counts': {
      const reasons = isRecord(value) ? Object.entries(value) : [];
      if (reasons.length === 0) return null;
      const text = reasons.map(([code, n]) => t.reasonCount(m.jobs.skipCode(code), count(n))).join(' · ');
      return { id: key, term: t.skippedByReason, description: text };
    }
    case 'file': {
      const file = isRecord(value) ? value : {};
      const name = typeof file.name === 'string' ? file.name : null;
      const format = typeof file.format === 'string' ? file.format : null;
      return { id: key, term: t.file, description: t.fileText(name, format) };
    }
    case 'of':
      return {
        id: key,
        term: t.undoes,
        description: (
          <Link to={`/jobs/${String(value)}`} className="rounded-sm font-medium underline-offset-4 hover:underline">
            {m.jobs.reference(Number(value), null)}
          </Link>
        ),
      };
    case 'except':
      return Array.isArray(value) && value.length > 0
        ? { id: key, term: t.leftOut, description: t.leftOutIds(value.map(Number)) }
        : null;
    case 'value':
      return { id: key, term: t.value, description: value === null ? t.cleared : valueText(key, value, m) };
    case 'scopes':
      return Array.isArray(value) && value.length > 0
        ? { id: key, term: t.scopes, description: value.map(String).join(', ') }
        : null;
    case 'mailed':
      return { id: key, term: t.mailed, description: value === true ? t.yes : t.no };
    default:
      return SAID_ELSEWHERE.has(key) ? null : { id: key, term: key, description: valueText(key, value, m) };
  }
}

/**
 * A job event's recorded context in words: whether it was a dry run, how it ended, how many it
 * matched, "Changed 1,497 · skipped 3 · failed 0", the skips by reason, an import's file, the
 * job an undo reverses — never its JSON. What the job's name says is not repeated.
 */
export function jobContextItems(event: Pick<AuditItem, 'action' | 'context'>, m: AuditPageMessages): Item[] {
  const context = event.context ?? {};
  const dryRun = context.dryRun === true;
  const attributeWithheld = 'attribute' in context && !('value' in context) && isRecord(context.sensitivity);
  return [
    ...Object.entries(context).flatMap(([key, value]) => {
      if (key === 'progress') return isRecord(value) ? progressItems(value, dryRun, m) : [];
      return itemOf(key, value, context, m, event.action) ?? [];
    }),
    ...(attributeWithheld ? [{ id: 'value', term: m.audit.job.value, description: m.audit.job.withheldValue }] : []),
  ];
}
