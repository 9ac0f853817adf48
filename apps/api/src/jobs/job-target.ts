import type { AttributeConditions, FilterValue, Job, JobTarget } from '@app/contracts';
import { Op, type Transaction } from 'sequelize';
import type { Actor } from '../auth/actor.js';
import type { Database } from '../db/database.js';
import { type JobRow, parseJson, type StoredJob, toJob } from './job-rows.js';
import { plainFilters } from '../query/list-query-engine.js';
import {
  type AttributeDefinition,
  toAttributeField,
  visibleDefinitionsOf,
} from '../repositories/attribute-definitions.js';

/**
 * What a job ran on (JobTarget), from what its submission stored: a bulk job's frozen users list
 * query (bulk/selection-job.ts), an import's file, an undo's job. A selection is told as the
 * caller may read it: a condition on an attribute the caller may not see (a sensitive one without
 * attributes.sensitive.view, or one deleted since) is left out and counted, never shown.
 *
 * Every answer about a job carries it, decided here: the list and a job's page (a page of jobs
 * read at once, jobs.submitters.ts), and each answer about one job — a submission, a cancel, an
 * undo — through {@link answerJob}; the `bulk.completed` event too (jobs/job-end.ts).
 */

/** The part of a bulk job's `params` that says what it ran on. */
interface StoredSelection {
  /** Absent on the jobs of versions before the kit: they were all users'. */
  resource?: string;
  query?: { q?: string | null; filters?: Record<string, FilterValue | undefined> };
  except?: number[];
}

/** What every target of a page of jobs needs read once: the roles named, the attributes seen. */
export interface TargetLookups {
  roles: ReadonlyMap<number, string>;
  /** Null when no selection names an attribute (nothing was read). */
  attributes: ReadonlyMap<string, AttributeDefinition> | null;
}

const usersSelectionOf = (row: JobRow): StoredSelection | null => {
  if (row.kind !== 'bulk') return null;
  const params = parseJson<StoredSelection>(row.params, {});
  if (!params.query || (params.resource ?? 'users') !== 'users') return null;
  return params;
};

const roleIdsOf = (selection: StoredSelection): number[] => {
  const filter = selection.query?.filters?.role_id;
  return filter?.kind === 'in' ? filter.values.map(Number).filter(Number.isInteger) : [];
};

const conditionsOf = (selection: StoredSelection): AttributeConditions | null => {
  const filter = selection.query?.filters?.attributes;
  return filter?.kind === 'exact' ? (filter.value as AttributeConditions) : null;
};

/** The role names and visible attributes the targets of `rows` need, in at most two reads (in `tx` when given). */
export async function targetLookups(
  db: Database,
  caller: Pick<Actor, 'permissions'>,
  rows: readonly JobRow[],
  tx?: Transaction,
): Promise<TargetLookups> {
  const selections = rows.flatMap((row) => usersSelectionOf(row) ?? []);
  const roleIds = [...new Set(selections.flatMap(roleIdsOf))];
  const roles = roleIds.length
    ? await db.models.Role.findAll({
        attributes: ['id', 'name'],
        where: { id: { [Op.in]: roleIds } },
        ...(tx ? { transaction: tx } : {}),
      })
    : [];
  const namesAttribute = selections.some((s) => conditionsOf(s) !== null);
  const attributes = namesAttribute ? await visibleDefinitionsOf(db, caller, tx) : null;
  return {
    roles: new Map(roles.map((r) => [Number(r.id), r.name])),
    attributes: attributes && new Map(attributes.map((d) => [d.key, d])),
  };
}

/** The selection's conditions on attributes the caller sees, and how many others were left out. */
function visibleConditions(conditions: AttributeConditions | null, seen: TargetLookups['attributes']) {
  const kept: AttributeConditions = {};
  let withheld = 0;
  for (const [key, condition] of Object.entries(conditions ?? {})) {
    if (seen?.has(key)) kept[key] = condition;
    else withheld += 1;
  }
  return { kept, withheld };
}

function selectionTarget(selection: StoredSelection, lookups: TargetLookups): JobTarget {
  const { attributes: _attributes, trashed, ...rest } = selection.query?.filters ?? {};
  const { kept, withheld } = visibleConditions(conditionsOf(selection), lookups.attributes);
  const filters: Record<string, FilterValue | undefined> = {
    ...rest,
    // The default view of the trash is no condition at all.
    ...(trashed && !(trashed.kind === 'trashed' && trashed.value === 'without') ? { trashed } : {}),
    ...(Object.keys(kept).length ? { attributes: { kind: 'exact', value: kept } } : {}),
  };
  return {
    kind: 'selection',
    query: { q: selection.query?.q ?? null, filters: plainFilters(filters) },
    except: selection.except?.length ?? 0,
    withheld,
    roles: roleIdsOf(selection).flatMap((id) => {
      const name = lookups.roles.get(id);
      return name === undefined ? [] : [{ id, name }];
    }),
    attributes: Object.keys(kept).flatMap((key) => {
      const definition = lookups.attributes?.get(key);
      return definition ? [toAttributeField(definition)] : [];
    }),
  };
}

/** What `row` (answered as `job`) ran on, for the caller `lookups` were read for; null when it cannot say. */
export function targetOf(row: JobRow, job: StoredJob, lookups: TargetLookups): JobTarget | null {
  if (job.kind === 'import')
    return job.import ? { kind: 'file', name: job.import.file.name, mode: job.import.mode } : null;
  if (job.kind === 'undo') return job.undo?.of ? { kind: 'job', id: job.undo.of } : null;
  const selection = usersSelectionOf(row);
  return selection ? selectionTarget(selection, lookups) : null;
}

/**
 * A job as an answer about that one job gives it: as stored (toJob), with what it ran on told as
 * `reader` may read it.
 */
export async function answerJob(db: Database, reader: Pick<Actor, 'permissions'>, row: JobRow): Promise<Job> {
  const job = toJob(row);
  return { ...job, target: targetOf(row, job, await targetLookups(db, reader, [row])) };
}
