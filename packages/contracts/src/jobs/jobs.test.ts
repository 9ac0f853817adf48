import { describe, expect, it } from 'vitest';
import { parseQueryString } from '../query/query-string';
import { accept, refuse } from '../test-support';
import { JobAnswerSchema, JobTargetSchema, JobWithSubmitterSchema, jobsListQuery } from './jobs';

const list = jobsListQuery.input;
const fromUrl = (raw: string) => accept(list, parseQueryString(raw));

describe('jobs list query: dry_run', () => {
  it('is absent unless given (the server then lists real runs only)', () => {
    expect(fromUrl('').filters.dry_run).toBeUndefined();
  });

  it('reads true and false, in the words a query string may use', () => {
    expect(fromUrl('filters[dry_run]=true').filters.dry_run).toEqual({ kind: 'exact', value: true });
    expect(fromUrl('filters[dry_run]=0').filters.dry_run).toEqual({ kind: 'exact', value: false });
    expect(accept(list, { filters: { dry_run: true } }).filters.dry_run).toEqual({ kind: 'exact', value: true });
  });

  it('refuses anything else at its path', () => {
    expect(refuse(list, parseQueryString('filters[dry_run]=any')).errors).toEqual({
      'filters.dry_run': ['Dry run must be true or false (1 or 0 also work).'],
    });
  });
});

describe('a job’s target', () => {
  const selection = {
    kind: 'selection',
    query: { q: 'ann', filters: { is_active: true, role_id: [3] } },
    except: 2,
    withheld: 1,
    roles: [{ id: 3, name: 'viewer' }],
    attributes: [],
  };

  it('says a selection, a file or the job an undo reverses', () => {
    expect(JobTargetSchema.parse(selection)).toEqual(selection);
    expect(JobTargetSchema.parse({ kind: 'file', name: 'people.csv', mode: 'upsert' })).toMatchObject({ kind: 'file' });
    expect(JobTargetSchema.parse({ kind: 'file', name: null, mode: 'create' })).toMatchObject({ name: null });
    expect(JobTargetSchema.parse({ kind: 'job', id: 12 })).toEqual({ kind: 'job', id: 12 });
  });

  it('refuses a file in a mode imports do not have, and an unknown kind', () => {
    expect(JobTargetSchema.safeParse({ kind: 'file', name: 'a.csv', mode: 'merge' }).success).toBe(false);
    expect(JobTargetSchema.safeParse({ kind: 'ids', count: 3 }).success).toBe(false);
  });

  it('is required (perhaps null) on every answer about a job: the list, its page, a submission or a cancel', () => {
    for (const shape of [JobWithSubmitterSchema.shape.target, JobAnswerSchema.shape.job.shape.target]) {
      expect(shape.safeParse(undefined).success).toBe(false);
      expect(shape.safeParse(null).success).toBe(true);
    }
  });
});
