import { BULK_OPERATIONS, type BulkOperation, IMPORT_MODES, type ImportMode } from '@app/contracts';
import type { JobAsked } from '../../domain/jobs.rules.js';
import { type ImportJobParams, type JobRow, parseJson, type UndoJobParams } from '../../jobs/job-rows.js';

const isBulkOperation = (value: string | null): value is BulkOperation =>
  (BULK_OPERATIONS as readonly (string | null)[]).includes(value);
const isImportMode = (value: unknown): value is ImportMode => (IMPORT_MODES as readonly unknown[]).includes(value);

/**
 * What a stored job was asked to do, for the rules of who may run and stop it (domain/jobs.rules.ts);
 * null for a row this version cannot read (a kind it does not know, parameters edited by hand),
 * which the rules then treat most strictly.
 */
export function jobAskedOf(row: Pick<JobRow, 'kind' | 'operation' | 'params'>): JobAsked | null {
  switch (row.kind) {
    case 'bulk':
      return isBulkOperation(row.operation) ? { kind: 'bulk', operation: row.operation } : null;
    case 'import': {
      const params = parseJson<Partial<ImportJobParams> | null>(row.params, null);
      const mode = params?.mode ?? row.operation;
      if (!params || !isImportMode(mode)) return null;
      return { kind: 'import', mode, activate: params.activate !== false, restore: params.restore === true };
    }
    case 'undo': {
      const params = parseJson<Partial<UndoJobParams> | null>(row.params, null);
      if (!params) return null;
      if (params.bulk) return { kind: 'undo', undoes: params.bulk.undoes, inverse: params.bulk.operation };
      // An undo submitted before it recorded what it changes is assumed to do both.
      return { kind: 'undo', removes: params.changes?.created ?? true, restores: params.changes?.updated ?? true };
    }
    default:
      return null;
  }
}
