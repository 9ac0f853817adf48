import { describe, expect, it } from 'vitest';
import { en } from '../../i18n/en';
import { etaSeconds, operationLabel, percentDone, rateOf, submitterText } from './job-format';

describe('a job’s pace', () => {
  it('measures the rate over the recent samples only', () => {
    expect(rateOf([])).toBeNull();
    expect(rateOf([{ at: 0, processed: 0 }])).toBeNull();
    expect(
      rateOf([
        { at: 0, processed: 0 },
        { at: 2_000, processed: 4_000 },
      ]),
    ).toBe(2_000);
    // A sample older than the window no longer counts: the pace is today's.
    const samples = [
      { at: 0, processed: 0 },
      { at: 20_000, processed: 1_000 },
      { at: 30_000, processed: 11_000 },
    ];
    expect(rateOf(samples)).toBe(1_000);
  });

  it('gives the time left at that rate, and none without one', () => {
    expect(etaSeconds({ total: 10_000, processed: 4_000 }, 2_000)).toBe(3);
    expect(etaSeconds({ total: 10_000, processed: 4_000 }, null)).toBeNull();
    expect(etaSeconds({ total: 10, processed: 12 }, 5)).toBe(0);
  });

  it('says how far along, and what the job does', () => {
    expect(percentDone({ total: 0, processed: 0 })).toBe(0);
    expect(percentDone({ total: 312_480, processed: 156_240 })).toBe(50);
    expect(operationLabel({ kind: 'bulk', operation: 'setActive', active: false }, en)).toBe(
      en.jobs.operations.deactivate,
    );
    expect(operationLabel({ kind: 'bulk', operation: 'forceDelete', active: null }, en)).toBe(
      en.jobs.operations.forceDelete,
    );
    expect(operationLabel({ kind: 'import', operation: 'create', active: null }, en)).toBe('Import users');
    expect(operationLabel({ kind: 'import', operation: 'upsert', active: null }, en)).toBe('Import and update users');
    expect(operationLabel({ kind: 'undo', operation: null, active: null }, en)).toBe('Undo an import');
    const viewer = { id: 3, name: 'viewer' };
    expect(operationLabel({ kind: 'bulk', operation: 'addRole', active: null, role: viewer }, en)).toBe(
      'Give users the role viewer',
    );
    expect(operationLabel({ kind: 'bulk', operation: 'removeRole', active: null, role: viewer }, en)).toBe(
      'Take the role viewer from users',
    );
    const department = { key: 'department', label: 'Department' };
    expect(operationLabel({ kind: 'bulk', operation: 'setAttribute', active: null, attribute: department }, en)).toBe(
      'Set Department',
    );
    expect(operationLabel({ kind: 'bulk', operation: 'setAttribute', active: null }, en)).toBe('Set an attribute');
  });
});

describe('whose job it is', () => {
  it('names the submitter, or says they are erased, or that the system sent it', () => {
    expect(submitterText({ actor_id: 3, submitted_by: { id: 3, name: 'Ada' } }, en)).toBe('Ada');
    expect(submitterText({ actor_id: 3, submitted_by: null }, en)).toBe(en.common.erasedUser(3));
    expect(submitterText({ actor_id: null, submitted_by: null }, en)).toBe(en.common.system);
  });
});
