import type { JobTarget } from '@app/contracts';
import { describe, expect, it } from 'vitest';
import { en } from '../../i18n/en';
import { jobOf } from '../../test/job-fixtures';
import { countsText, jobTitle } from './job-format';

const j = en.jobs;

const selection = (over: Partial<Extract<JobTarget, { kind: 'selection' }>> = {}): JobTarget => ({
  kind: 'selection',
  query: { q: null, filters: {} },
  except: 0,
  withheld: 0,
  roles: [],
  attributes: [],
  ...over,
});

describe('a job’s title', () => {
  it('names what a bulk job does and the selection it ran on, as the users list’s chips say it', () => {
    const job = jobOf({
      progress: { total: 2_461 },
      target: selection({
        query: { q: null, filters: { is_active: true, role_id: [3] } },
        roles: [{ id: 3, name: 'viewer' }],
      }),
    });
    expect(jobTitle(job, en)).toBe('Deactivate 2,461 users matching Roles: viewer, Status: Active');
  });

  it('names a role change by its role, with the search and the ids left out', () => {
    const job = jobOf({
      operation: 'addRole',
      active: null,
      role: { id: 5, name: 'Help Desk' },
      progress: { total: 12 },
      target: selection({ query: { q: 'ann', filters: {} }, except: 2 }),
    });
    expect(jobTitle(job, en)).toBe('Add role “Help Desk” to 12 users matching Search: ann (2 left out)');
  });

  it('says every user when the selection has no condition, and counts the conditions withheld', () => {
    expect(jobTitle(jobOf({ progress: { total: 1 }, target: selection() }), en)).toBe('Deactivate 1 user');
    const hidden = jobOf({
      operation: 'delete',
      active: null,
      progress: { total: 40 },
      target: selection({
        query: { q: null, filters: { attributes: { team: ['Red'] } } },
        withheld: 1,
        attributes: [
          {
            key: 'team',
            label: 'Team',
            type: 'enum',
            values: ['Red', 'Blue'],
            required: false,
            unique: false,
            validators: {},
            sensitivity: 'none',
            description: null,
          },
        ],
      }),
    });
    expect(jobTitle(hidden, en)).toBe(`Delete 40 users matching Team: Red, ${j.titles.withheld(1)}`);
  });

  it('names an import by its file and mode, an undo by its job, and an older job by what it does', () => {
    const file = jobOf({
      kind: 'import',
      operation: 'upsert',
      target: { kind: 'file', name: 'people.csv', mode: 'upsert' },
    });
    expect(jobTitle(file, en)).toBe('Import people.csv (add and update)');
    expect(jobTitle(jobOf({ kind: 'undo', operation: null, target: { kind: 'job', id: 12 } }), en)).toBe(
      'Undo job #12',
    );
    expect(jobTitle(jobOf({ target: null }), en)).toBe(j.operations.deactivate);
  });
});

describe('a job’s counts in words', () => {
  it('says what a dry run would change, never “changed”', () => {
    const dry = jobOf({ dryRun: true, progress: { changed: 2_461, skipped: 3 } });
    expect(countsText(dry, en)).toBe('2,461 users would be changed, 3 would be skipped.');
    expect(countsText(dry, en)).not.toMatch(/users changed/);
    expect(countsText(jobOf({ progress: { changed: 5, skipped: 0 } }), en)).toBe(j.finishedToast.counts(5, 0));
  });
});
