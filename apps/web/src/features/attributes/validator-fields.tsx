import { RANGED_ATTRIBUTE_TYPES, TEXT_ATTRIBUTE_TYPES } from '@app/contracts';
import { TextField } from '@app/ui';
import type { UseFormReturn } from 'react-hook-form';
import { useAttributesMessages } from '../../i18n/attributes-messages';
import type { AttributeDraft, AttributeFormValues } from './attribute-form-values';

/** The validators that apply to the chosen type: length and pattern for text, bounds for numbers and dates. */
export function ValidatorFields({ form }: { form: UseFormReturn<AttributeFormValues, unknown, AttributeDraft> }) {
  const m = useAttributesMessages();
  const t = m.attributeForm;
  const errors = form.formState.errors;
  const type = form.watch('type');
  const text = TEXT_ATTRIBUTE_TYPES.includes(type);
  const ranged = RANGED_ATTRIBUTE_TYPES.includes(type);
  const boundType = type === 'date' ? 'date' : 'number';
  return (
    <>
      {text ? (
        <>
          <div className="grid gap-5 sm:grid-cols-2">
            <TextField
              label={t.minLength}
              labelAside={m.common.optional}
              type="number"
              inputMode="numeric"
              min={0}
              error={errors.validators?.min_length?.message}
              {...form.register('validators.min_length')}
            />
            <TextField
              label={t.maxLength}
              labelAside={m.common.optional}
              type="number"
              inputMode="numeric"
              min={1}
              error={errors.validators?.max_length?.message}
              {...form.register('validators.max_length')}
            />
          </div>
          <TextField
            label={t.pattern}
            labelAside={m.common.optional}
            description={t.patternDescription}
            autoComplete="off"
            spellCheck={false}
            className="font-mono"
            error={errors.validators?.pattern?.message}
            {...form.register('validators.pattern')}
          />
        </>
      ) : null}
      {ranged ? (
        <div className="grid gap-5 sm:grid-cols-2">
          <TextField
            label={t.min}
            labelAside={m.common.optional}
            type={boundType}
            step="any"
            error={errors.validators?.min?.message}
            {...form.register('validators.min')}
          />
          <TextField
            label={t.max}
            labelAside={m.common.optional}
            type={boundType}
            step="any"
            error={errors.validators?.max?.message}
            {...form.register('validators.max')}
          />
        </div>
      ) : null}
    </>
  );
}
