import { describe, expect, it } from 'vitest';
import { ATTRIBUTE_FIELDS, attributeField } from '../../test/attribute-fixtures';
import { judgeAttributes, rawAttributeValue, toAttributeTexts } from './user-attribute-values';

const level = attributeField({ key: 'level', label: 'Level', type: 'number' });
const remote = attributeField({ key: 'remote', label: 'Works remotely', type: 'boolean' });
const department = attributeField({
  key: 'department',
  label: 'Department',
  type: 'enum',
  values: ['Sales', 'Support'],
  required: true,
});

describe('the user form’s attribute values', () => {
  it('reads typed text as the API’s values: yes/no as booleans, numbers and user ids as numbers, blank as a clear', () => {
    expect(rawAttributeValue(remote, 'false')).toBe(false);
    expect(rawAttributeValue(level, ' 3.5 ')).toBe(3.5);
    expect(rawAttributeValue(level, 'three')).toBe('three');
    expect(rawAttributeValue(level, '  ')).toBeNull();
    expect(rawAttributeValue(attributeField({ key: 'm', label: 'M', type: 'user' }), '7')).toBe(7);
  });

  it('holds stored values as text, so a form can show them', () => {
    expect(toAttributeTexts({ level: 3, remote: false, department: 'Sales' })).toEqual({
      level: '3',
      remote: 'false',
      department: 'Sales',
    });
  });

  it('on a create, judges every value given and every required attribute', () => {
    expect(judgeAttributes(ATTRIBUTE_FIELDS, { level: '4' }, null)).toEqual({
      values: { level: 4 },
      errors: { department: 'Department is required.' },
    });
    expect(judgeAttributes([level], { level: 'three' }, null).errors).toEqual({ level: 'Level must be a number.' });
  });

  it('on an edit, sends only what changed, in its stored form; a cleared value as null', () => {
    const opened = { level: '3', remote: 'true', department: 'Sales' };
    const typed = { level: '', remote: 'true', department: 'SALES ' };
    expect(judgeAttributes([level, remote, department], typed, opened)).toEqual({
      values: { level: null },
      errors: {},
    });
    // An untouched required attribute without a value is not judged: the server judges the keys it is sent.
    expect(judgeAttributes([department], {}, {})).toEqual({ values: {}, errors: {} });
  });
});
