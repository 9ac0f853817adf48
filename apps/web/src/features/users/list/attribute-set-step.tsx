import { type AttributeField, type AttributeValue, checkAttributeValue, type UsersListResult } from '@app/contracts';
import { ConfirmDialog, FieldShell, NativeSelect, SwitchField, TextField } from '@app/ui';
import { useId, useState } from 'react';
import { type Messages, useMessages } from '../../../i18n/messages';
import type { BulkAskProps, BulkText } from '../../../lib/resource-list/bulk-actions';
import { UserPicker } from '../../attributes/user-picker';
import type { UsersBulkOperation } from '../../../lib/users-query/users-list-state';

// This step loads when "Set attribute…" is first chosen: `checkAttributeValue` brings the pattern
// engine (RE2), which the users list's own bundle must not carry (its size budget).

type AskProps = BulkAskProps<UsersBulkOperation, UsersListResult>;

const INPUT_TYPES = { string: 'text', email: 'email', url: 'url', number: 'number', date: 'date' } as const;

/** The field's text as the value the API takes, before it is judged: yes/no a boolean, a number or a user id a number. */
function rawValue(type: AttributeField['type'], text: string): unknown {
  const trimmed = text.trim();
  if (type === 'boolean') return trimmed === 'true' ? true : trimmed === 'false' ? false : trimmed;
  if ((type === 'number' || type === 'user') && trimmed !== '' && Number.isFinite(Number(trimmed))) {
    return Number(trimmed);
  }
  return text;
}

/** The value in the dialogs' words. */
function valueText(m: Messages, field: AttributeField, value: AttributeValue | null): string {
  const t = m.usersList.attributes;
  if (value === null) return t.bulk.cleared;
  if (typeof value === 'boolean') return value ? t.yes : t.no;
  if (field.type === 'user') return t.userId(Number(value));
  return String(value);
}

function setText(m: Messages, field: AttributeField, value: AttributeValue | null): BulkText {
  const t = m.usersList.attributes.bulk;
  const { label } = field;
  return {
    verb: t.verb(label),
    title: (count) => t.title(count, label),
    description: t.description(label, valueText(m, field, value)),
    affected: (count) => t.affected(count, label),
    confirm: (count) => t.confirm(count, label),
    done: (count) => t.done(count, label),
  };
}

/** The value's control, by the attribute's type. */
function ValueField({
  field,
  value,
  onChange,
  error,
}: {
  field: AttributeField;
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
}) {
  const m = useMessages();
  const t = m.usersList.attributes;
  const id = useId();
  const common = { label: t.bulk.value, description: field.description ?? undefined, error };
  switch (field.type) {
    case 'boolean':
    case 'enum':
      return (
        <FieldShell controlId={id} {...common}>
          <NativeSelect id={id} value={value} onChange={(event) => onChange(event.target.value)}>
            <option value="">{t.bulk.valuePlaceholder}</option>
            {(field.type === 'boolean'
              ? [
                  { value: 'true', label: t.yes },
                  { value: 'false', label: t.no },
                ]
              : (field.values ?? []).map((v) => ({ value: v, label: v }))
            ).map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </NativeSelect>
        </FieldShell>
      );
    case 'user':
      return <UserPicker {...common} value={value} onChange={onChange} />;
    default:
      return (
        <TextField
          {...common}
          type={INPUT_TYPES[field.type]}
          autoComplete="off"
          step={field.type === 'number' ? 'any' : undefined}
          value={value}
          onChange={(event) => onChange(event.target.value)}
        />
      );
  }
}

/**
 * First step of "Set attribute…": which attribute (those the list's answer says the caller may
 * see) and its value, or clearing it. The value is judged here by the server's own function
 * (`checkAttributeValue`) before the dry run; a unique attribute given to several users is the
 * server's to refuse (its 422 is the check's error).
 */
export function SetAttributeStep({ count, data, onChoose, onClose }: AskProps) {
  const m = useMessages();
  const t = m.usersList.attributes.bulk;
  const id = useId();
  const definitions = data?.attributes;
  const [key, setKey] = useState('');
  const [text, setDraft] = useState('');
  const [clear, setClear] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const field = definitions?.find((d) => d.key === key);

  const choose = () => {
    if (!field) return;
    const checked = clear ? null : checkAttributeValue(field, rawValue(field.type, text));
    if (checked && !checked.ok) {
      setError(checked.message);
      return;
    }
    const value = checked ? checked.value : null;
    onChoose({
      operation: { operation: 'setAttribute', attribute: field.key, value },
      text: setText(m, field, value),
    });
  };

  return (
    <ConfirmDialog
      open
      onOpenChange={(open) => (open ? undefined : onClose())}
      title={t.pickTitle(count)}
      description={t.pickDescription}
      confirmLabel={t.next}
      cancelLabel={m.usersList.bulk.cancel}
      confirmDisabled={!field}
      onConfirm={choose}
    >
      <div className="space-y-4">
        <FieldShell controlId={id} label={t.attribute}>
          <NativeSelect
            id={id}
            value={key}
            disabled={!definitions || definitions.length === 0}
            onChange={(event) => {
              setKey(event.target.value);
              setDraft('');
              setError(undefined);
            }}
          >
            <option value="">
              {!definitions ? t.loading : definitions.length === 0 ? t.noAttributes : t.attributePlaceholder}
            </option>
            {(definitions ?? []).map((d) => (
              <option key={d.key} value={d.key}>
                {d.label}
              </option>
            ))}
          </NativeSelect>
        </FieldShell>
        {field ? (
          <>
            {clear ? null : (
              <ValueField
                key={field.key}
                field={field}
                value={text}
                onChange={(next) => {
                  setDraft(next);
                  setError(undefined);
                }}
                error={error}
              />
            )}
            <SwitchField
              label={t.clear}
              description={t.clearHint}
              checked={clear}
              onCheckedChange={(next) => {
                setClear(next);
                setError(undefined);
              }}
            />
            {field.unique && count > 1 ? <p className="text-sm text-muted-foreground">{t.uniqueHint}</p> : null}
          </>
        ) : null}
      </div>
    </ConfirmDialog>
  );
}
