import {
  type Attribute,
  SCIM_ENTERPRISE_FIELDS,
  type ScimEnterpriseField,
  type ScimMapping,
  scimFieldTakes,
} from '@app/contracts';
import { Button, FormError } from '@app/ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { useAttributesMessages } from '../../i18n/attributes-messages';
import { apiErrorMessage, isApiError } from '../../lib/api-error';
import { toast } from '../../lib/toast';
import { useTRPC } from '../../lib/trpc';
import { SelectField } from './form-parts';
import {
  choicesFor,
  duplicateFields,
  mappingChanged,
  placeServerErrors,
  SCIM_MAPPING_ANCHOR,
} from './scim-mapping-draft';

const NOT_MAPPED = '';

interface FieldRowProps {
  field: ScimEnterpriseField;
  value: string | null;
  choices: readonly Attribute[];
  error: string | undefined;
  onChange: (key: string | null) => void;
}

function FieldRow({ field, value, choices, error, onChange }: FieldRowProps) {
  const t = useAttributesMessages().scimMapping;
  const known = value === null || choices.some((a) => a.key === value);
  const takes = scimFieldTakes(field).includes('user') ? t.takes.user : t.takes.text;
  return (
    <SelectField
      name={field}
      label={t.fields[field]}
      labelAside={<code className="font-mono">{field}</code>}
      description={choices.length === 0 ? `${takes}. ${t.noChoice}` : takes}
      error={error}
      value={value ?? NOT_MAPPED}
      onChange={(event) => onChange(event.target.value === NOT_MAPPED ? null : event.target.value)}
    >
      <option value={NOT_MAPPED}>{t.notMapped}</option>
      {choices.map((a) => (
        <option key={a.key} value={a.key}>
          {a.sensitivity === 'sensitive' ? t.sensitive(a.label) : a.label}
        </option>
      ))}
      {/* What the server holds is shown as it is, even when the list cannot name it. */}
      {known ? null : <option value={value}>{t.unknown(value)}</option>}
    </SelectField>
  );
}

/** The six selects and Save: refuses one attribute for two fields before sending, places the server's 422. */
export function ScimMappingForm({ saved, attributes }: { saved: ScimMapping; attributes: readonly Attribute[] }) {
  const m = useAttributesMessages();
  const t = m.scimMapping;
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const update = useMutation(trpc.scimMapping.update.mutationOptions());
  const [draft, setDraft] = useState<ScimMapping>(saved);
  const [serverErrors, setServerErrors] = useState<Partial<Record<ScimEnterpriseField, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const form = useRef<HTMLFormElement>(null);
  const focus = (field: ScimEnterpriseField) => form.current?.querySelector<HTMLElement>(`[name="${field}"]`)?.focus();

  const labelOf = (key: string) => attributes.find((a) => a.key === key)?.label ?? key;
  const clashes = duplicateFields(draft, saved);
  const errorOf = (field: ScimEnterpriseField) => {
    const other = clashes[field];
    const key = draft[field];
    return other && key ? t.duplicate(labelOf(key), t.fields[other]) : serverErrors[field];
  };

  const choose = (field: ScimEnterpriseField, key: string | null) => {
    setDraft((current) => ({ ...current, [field]: key }));
    setServerErrors(({ [field]: _cleared, ...rest }) => rest);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const refused = SCIM_ENTERPRISE_FIELDS.find((field) => clashes[field]);
    if (refused) {
      focus(refused);
      return;
    }
    setFormError(null);
    try {
      const answer = await update.mutateAsync({ mapping: draft });
      toast.success(t.saved);
      queryClient.setQueryData(trpc.scimMapping.show.queryKey(), answer);
    } catch (error) {
      const { byField, unplaced } = placeServerErrors(isApiError(error) ? error.data?.errors : undefined);
      setServerErrors(byField);
      const first = SCIM_ENTERPRISE_FIELDS.find((field) => byField[field]);
      if (first) focus(first);
      if (!first || unplaced.length > 0) setFormError(unplaced.join(' ') || apiErrorMessage(error, m));
    }
  };

  return (
    <form
      ref={form}
      onSubmit={(event) => void submit(event)}
      noValidate
      aria-labelledby={`${SCIM_MAPPING_ANCHOR}-title`}
    >
      {formError ? <FormError className="mx-5 mt-5" title={t.failedTitle} message={formError} /> : null}
      <div className="grid gap-x-6 gap-y-5 p-5 sm:grid-cols-2">
        {SCIM_ENTERPRISE_FIELDS.map((field) => (
          <FieldRow
            key={field}
            field={field}
            value={draft[field]}
            choices={choicesFor(field, attributes)}
            error={errorOf(field)}
            onChange={(key) => choose(field, key)}
          />
        ))}
      </div>
      <div className="flex justify-end border-t border-border px-5 py-3">
        <Button type="submit" loading={update.isPending} disabled={!mappingChanged(draft, saved)}>
          {t.save}
        </Button>
      </div>
    </form>
  );
}
