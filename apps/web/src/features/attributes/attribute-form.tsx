import { ATTRIBUTE_TYPES } from '@app/contracts';
import { FormError, SwitchField, TextField } from '@app/ui';
import { useMemo, useRef, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { FormFrame, FormSection } from '../../components/form-frame';
import { useAttributesMessages } from '../../i18n/attributes-messages';
import { apiErrorMessage, isApiError } from '../../lib/api-error';
import {
  type AttributeDraft,
  type AttributeFormValues,
  attributeResolver,
  fieldOfPath,
  nestErrors,
} from './attribute-form-values';
import { SelectField, SensitivityChoice, TextAreaField } from './form-parts';
import { ValidatorFields } from './validator-fields';

/** `Cost centre` → `cost_centre`: a key the contract accepts, as a suggestion. */
const keyFromLabel = (label: string) =>
  label
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^[^a-z]+|_+$/g, '')
    .slice(0, 64);

export interface AttributeFormProps {
  initial: AttributeFormValues;
  /** Creating: the key can be typed; editing: it is shown, fixed. */
  creating: boolean;
  /** Saves; a refusal with field errors (`label`, `validators.pattern`) lands next to its field. */
  onSubmit: (draft: AttributeDraft) => Promise<unknown>;
  onCancel: () => void;
}

/** The definition form of /settings/attributes/new and /settings/attributes/:key: exactly the contract's fields. */
export function AttributeForm({ initial, creating, onSubmit, onCancel }: AttributeFormProps) {
  const m = useAttributesMessages();
  const t = m.attributeForm;
  const saved = useRef(false);
  const [formError, setFormError] = useState<string | null>(null);
  const resolver = useMemo(() => attributeResolver(creating), [creating]);
  const form = useForm<AttributeFormValues, unknown, AttributeDraft>({ resolver, defaultValues: initial });
  const { errors, isDirty, isSubmitting } = form.formState;
  const type = form.watch('type');

  const submit = form.handleSubmit(async (draft) => {
    setFormError(null);
    try {
      saved.current = true;
      await onSubmit(draft);
    } catch (error) {
      saved.current = false;
      const fieldErrors = isApiError(error) ? error.data?.errors : undefined;
      const { unplaced } = nestErrors(fieldErrors ?? {});
      let first = true;
      for (const [path, messages] of Object.entries(fieldErrors ?? {})) {
        const field = fieldOfPath(path);
        if (!field) continue;
        form.setError(field, { type: 'server', message: [...new Set(messages)].join(' ') }, { shouldFocus: first });
        first = false;
      }
      if (first || unplaced.length > 0) setFormError(unplaced.join(' ') || apiErrorMessage(error, m));
    }
  });

  return (
    <FormFrame
      onSubmit={(event) => void submit(event)}
      submitLabel={creating ? t.create : t.save}
      pending={isSubmitting}
      onCancel={onCancel}
      shouldBlockLeaving={() => !saved.current && isDirty}
      notices={formError ? <FormError title={t.failedTitle} message={formError} /> : undefined}
    >
      <div className="divide-y divide-border">
        <FormSection title={t.whatTitle} description={t.whatDescription}>
          <TextField
            label={t.label}
            autoComplete="off"
            placeholder={t.labelPlaceholder}
            error={errors.label?.message}
            {...form.register('label', {
              // A new attribute's key follows its label until the key is typed itself.
              onChange: (event: { target: { value: string } }) => {
                if (creating && !form.getFieldState('key').isDirty)
                  form.setValue('key', keyFromLabel(event.target.value));
              },
            })}
          />
          <TextField
            label={t.key}
            description={t.keyDescription}
            autoComplete="off"
            spellCheck={false}
            readOnly={!creating}
            placeholder={t.keyPlaceholder}
            className="font-mono read-only:bg-surface-muted"
            error={errors.key?.message}
            {...form.register('key')}
          />
          <SelectField label={t.type} error={errors.type?.message} {...form.register('type')}>
            {ATTRIBUTE_TYPES.map((option) => (
              <option key={option} value={option}>
                {m.attributeTypes[option]}
              </option>
            ))}
          </SelectField>
          {type === 'enum' ? (
            <TextAreaField
              label={t.values}
              description={t.valuesDescription}
              error={errors.values?.message}
              {...form.register('values')}
            />
          ) : null}
          <TextAreaField
            label={t.description}
            labelAside={m.common.optional}
            description={t.descriptionDescription}
            rows={2}
            error={errors.description?.message}
            {...form.register('description')}
          />
        </FormSection>
        <FormSection title={t.rulesTitle} description={t.rulesDescription}>
          <Controller
            control={form.control}
            name="required"
            render={({ field, fieldState }) => (
              <SwitchField
                label={t.required}
                description={t.requiredDescription}
                checked={field.value}
                onCheckedChange={field.onChange}
                onBlur={field.onBlur}
                ref={field.ref}
                error={fieldState.error?.message}
              />
            )}
          />
          {type === 'boolean' || type === 'user' ? null : (
            <Controller
              control={form.control}
              name="unique"
              render={({ field, fieldState }) => (
                <SwitchField
                  label={t.unique}
                  description={t.uniqueDescription}
                  checked={field.value}
                  onCheckedChange={field.onChange}
                  onBlur={field.onBlur}
                  ref={field.ref}
                  error={fieldState.error?.message}
                />
              )}
            />
          )}
          <ValidatorFields form={form} />
        </FormSection>
        <FormSection title={t.sensitivityTitle} description={t.sensitivityDescription}>
          <Controller
            control={form.control}
            name="sensitivity"
            render={({ field, fieldState }) => (
              <SensitivityChoice value={field.value} onChange={field.onChange} error={fieldState.error?.message} />
            )}
          />
        </FormSection>
      </div>
    </FormFrame>
  );
}
