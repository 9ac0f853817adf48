import type { Attribute } from '@app/contracts';
import { describe, expect, it } from 'vitest';
import { toAttributeDraft, toAttributeFormValues } from './attribute-form-values';
import { couldBreakValues } from './attribute-impact';

const current: Attribute = {
  key: 'employee_number',
  label: 'Employee number',
  type: 'string',
  values: null,
  required: false,
  unique: false,
  validators: { pattern: '[0-9]{6}', max_length: 6 },
  sensitivity: 'none',
  description: null,
  holders: 12,
  created_at: '2026-11-28T10:00:00.000Z',
  updated_at: '2026-11-28T10:00:00.000Z',
};
const edited = (change: (v: ReturnType<typeof toAttributeFormValues>) => void) => {
  const values = toAttributeFormValues(current);
  change(values);
  return toAttributeDraft(values);
};

describe('whether a change could break stored values', () => {
  it('is no for a label, a description or a sensitivity, whatever order the validators were stored in', () => {
    expect(
      couldBreakValues(
        current,
        edited(() => undefined),
      ),
    ).toBe(false);
    expect(
      couldBreakValues(
        current,
        edited((v) => {
          v.label = 'Staff number';
          v.description = 'From the HR system.';
          v.sensitivity = 'personal';
        }),
      ),
    ).toBe(false);
  });

  it('is yes for a type, a validator, or becoming unique or required', () => {
    expect(
      couldBreakValues(
        current,
        edited((v) => (v.type = 'number')),
      ),
    ).toBe(true);
    expect(
      couldBreakValues(
        current,
        edited((v) => (v.validators.max_length = '5')),
      ),
    ).toBe(true);
    expect(
      couldBreakValues(
        current,
        edited((v) => (v.unique = true)),
      ),
    ).toBe(true);
    expect(
      couldBreakValues(
        current,
        edited((v) => (v.required = true)),
      ),
    ).toBe(true);
  });
});
