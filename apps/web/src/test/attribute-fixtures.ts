import type { AttributeField } from '@app/contracts';

/** One attribute as a form offers it (`options.attributes`); override what the test is about. */
export const attributeField = (more: Partial<AttributeField> & Pick<AttributeField, 'key' | 'label' | 'type'>) => ({
  values: null,
  required: false,
  unique: false,
  validators: {},
  sensitivity: 'none' as const,
  description: null,
  ...more,
});

/** One attribute of each type, as an organisation would declare them. */
export const ATTRIBUTE_FIELDS: AttributeField[] = [
  attributeField({
    key: 'employee_number',
    label: 'Employee number',
    type: 'string',
    validators: { pattern: '[0-9]{6}' },
  }),
  attributeField({ key: 'level', label: 'Level', type: 'number', validators: { min: 1, max: 9 } }),
  attributeField({ key: 'remote', label: 'Works remotely', type: 'boolean' }),
  attributeField({ key: 'start_date', label: 'Start date', type: 'date' }),
  attributeField({ key: 'backup_email', label: 'Backup e-mail', type: 'email' }),
  attributeField({ key: 'homepage', label: 'Homepage', type: 'url' }),
  attributeField({
    key: 'department',
    label: 'Department',
    type: 'enum',
    values: ['Sales', 'Support'],
    required: true,
    description: 'Where the person works.',
  }),
  attributeField({ key: 'manager', label: 'Manager', type: 'user' }),
];
