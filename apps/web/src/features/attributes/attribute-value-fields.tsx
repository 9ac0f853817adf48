import type { AttributeField } from '@app/contracts';
import { TextField } from '@app/ui';
import { Controller, type FieldPath, type FieldValues, type UseFormReturn } from 'react-hook-form';
import { FormSection } from '../../components/form-frame';
import { useAttributesMessages } from '../../i18n/attributes-messages';
import { SelectField } from './form-parts';
import type { AttributeTexts } from './user-attribute-values';
import { UserPicker } from './user-picker';

type WithTexts = FieldValues & { attributes?: AttributeTexts };

const INPUT_TYPES = { string: 'text', email: 'email', url: 'url', number: 'number', date: 'date' } as const;

/**
 * The user form's "Attributes" section: one field per attribute the server offers this caller
 * (`options.attributes` of users.new / users.edit), by type — text, e-mail, web address, number,
 * date, yes/no, a choice, a user found by name. Values are judged on submit by the form's resolver.
 */
export function AttributeValueFields<V extends WithTexts, T>({
  form,
  fields,
}: {
  form: UseFormReturn<V, unknown, T>;
  fields: readonly AttributeField[];
}) {
  const m = useAttributesMessages();
  const t = m.attributeFields;
  if (fields.length === 0) return null;
  const errors = (form.formState.errors.attributes ?? {}) as Record<string, { message?: string } | undefined>;

  return (
    <FormSection title={t.sectionTitle} description={t.sectionDescription}>
      {fields.map((field) => {
        const name = `attributes.${field.key}` as FieldPath<V>;
        const common = {
          label: field.label,
          description: field.description ?? undefined,
          labelAside: field.required ? undefined : m.common.optional,
          error: errors[field.key]?.message,
        };
        switch (field.type) {
          case 'boolean':
          case 'enum':
            return (
              <SelectField key={field.key} {...common} {...form.register(name)}>
                <option value="">{field.required ? t.choose : t.notSet}</option>
                {field.type === 'boolean' ? (
                  <>
                    <option value="true">{t.yes}</option>
                    <option value="false">{t.no}</option>
                  </>
                ) : (
                  (field.values ?? []).map((value) => (
                    <option key={value} value={value}>
                      {value}
                    </option>
                  ))
                )}
              </SelectField>
            );
          case 'user':
            return (
              <Controller
                key={field.key}
                control={form.control}
                name={name}
                render={({ field: control }) => (
                  <UserPicker {...common} value={String(control.value ?? '')} onChange={control.onChange} />
                )}
              />
            );
          default:
            return (
              <TextField
                key={field.key}
                {...common}
                type={INPUT_TYPES[field.type]}
                autoComplete="off"
                spellCheck={field.type === 'string' ? undefined : false}
                step={field.type === 'number' ? 'any' : undefined}
                {...form.register(name)}
              />
            );
        }
      })}
    </FormSection>
  );
}
