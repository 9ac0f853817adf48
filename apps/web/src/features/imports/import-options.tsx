import { useImportMessages } from './import-messages';
import {
  IMPORT_DELIMITERS,
  IMPORT_ENCODINGS,
  IMPORT_MODES,
  type ImportDelimiter,
  type ImportEncoding,
} from '@app/contracts';
import { CheckboxGroup, FieldShell, NativeSelect, SwitchField, TextField } from '@app/ui';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { useTRPC } from '../../lib/trpc';
import { useCan } from '../auth/use-session';
import type { ImportChoices } from './import-upload';

interface OptionsProps {
  choices: ImportChoices;
  onChange: (patch: Partial<ImportChoices>) => void;
  /** A refusal of the default roles (422 `defaultRoles.0`, 403), shown under them. */
  rolesError?: string | undefined;
}

/** Create or upsert, as radio buttons; offered only to those who may update users. */
function ModeChoice({ choices, onChange }: OptionsProps) {
  const t = useImportMessages().imports;
  const name = useId();
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-1.5 text-sm font-medium text-foreground">{t.options.mode}</legend>
      {IMPORT_MODES.map((mode) => (
        // The label's ::after covers the row, so the whole row picks the mode, while the radio's
        // name stays the label alone (the help is its description).
        <div
          key={mode}
          className="relative flex items-start gap-3 rounded-lg border border-border px-3 py-2.5 has-checked:border-primary has-checked:bg-primary/5"
        >
          <input
            id={`${name}-${mode}`}
            type="radio"
            name={name}
            value={mode}
            checked={choices.mode === mode}
            onChange={() => onChange({ mode })}
            aria-describedby={`${name}-${mode}-description`}
            className="relative z-10 mt-1 accent-primary"
          />
          <span className="min-w-0">
            <label
              htmlFor={`${name}-${mode}`}
              className="block cursor-pointer text-sm font-medium text-foreground after:absolute after:inset-0"
            >
              {t.modes[mode].label}
            </label>
            <span id={`${name}-${mode}-description`} className="block text-xs text-muted-foreground">
              {t.modes[mode].description}
            </span>
          </span>
        </div>
      ))}
    </fieldset>
  );
}

/** The roles new users get when their line names none, as `GET /users/new` offers them to this caller. */
function DefaultRoles({ choices, onChange, rolesError }: OptionsProps) {
  const t = useImportMessages().imports.options;
  const trpc = useTRPC();
  const form = useQuery({ ...trpc.users.new.queryOptions(), retry: false });
  if (form.isError) return <p className="text-sm text-muted-foreground">{t.rolesUnavailable}</p>;
  const roles = form.data?.options.roles ?? [];
  return (
    <CheckboxGroup
      legend={t.defaultRoles}
      description={t.defaultRolesDescription}
      options={roles.map((role) => ({
        value: role.name,
        label: role.name,
        disabled: !role.assignable,
        description: role.assignable ? undefined : (role.reason ?? t.roleLocked),
      }))}
      value={choices.defaultRoles}
      onChange={(defaultRoles) => onChange({ defaultRoles })}
      error={rolesError}
      emptyMessage={form.isPending ? null : t.noRoles}
    />
  );
}

/** Encoding, delimiter and sheet, each detected by the server unless the user says otherwise. */
function AdvancedOptions({ choices, onChange }: OptionsProps) {
  const m = useImportMessages();
  const t = m.imports.options;
  const encodingId = useId();
  const delimiterId = useId();
  // The sheet's name is sent when the user is done typing it, not at every key.
  const [sheet, setSheet] = useState(choices.sheet);
  // Starting over clears the choices; the field follows.
  useEffect(() => setSheet(choices.sheet), [choices.sheet]);
  const commitSheet = () => {
    if (sheet.trim() !== choices.sheet) onChange({ sheet: sheet.trim() });
  };
  return (
    <details className="group rounded-lg border border-border">
      <summary className="cursor-pointer rounded-lg px-3 py-2.5 text-sm font-medium text-foreground hover:bg-surface-muted/60 focus-visible:outline-2 focus-visible:outline-ring">
        {t.advanced}
      </summary>
      <div className="grid gap-4 border-t border-border p-3 sm:grid-cols-2">
        <FieldShell controlId={encodingId} label={t.encoding}>
          <NativeSelect
            id={encodingId}
            value={choices.encoding}
            onChange={(event) => onChange({ encoding: event.currentTarget.value as ImportEncoding | '' })}
          >
            <option value="">{t.detect}</option>
            {IMPORT_ENCODINGS.map((encoding) => (
              <option key={encoding} value={encoding}>
                {m.imports.encodings[encoding]}
              </option>
            ))}
          </NativeSelect>
        </FieldShell>
        <FieldShell controlId={delimiterId} label={t.delimiter}>
          <NativeSelect
            id={delimiterId}
            value={choices.delimiter}
            onChange={(event) => onChange({ delimiter: event.currentTarget.value as ImportDelimiter | '' })}
          >
            <option value="">{t.detect}</option>
            {IMPORT_DELIMITERS.map((delimiter) => (
              <option key={delimiter} value={delimiter}>
                {m.imports.delimiters[delimiter]}
              </option>
            ))}
          </NativeSelect>
        </FieldShell>
        <TextField
          fieldClassName="sm:col-span-2"
          label={t.sheet}
          description={t.sheetDescription}
          placeholder={t.detect}
          maxLength={31}
          value={sheet}
          onChange={(event) => setSheet(event.currentTarget.value)}
          onBlur={commitSheet}
          onKeyDown={(event) => {
            if (event.key === 'Enter') commitSheet();
          }}
        />
      </div>
    </details>
  );
}

/**
 * The import's options. What the caller may not choose is not offered (`can`, as the rest of the
 * SPA does); the server checks again, and decides which roles are grantable.
 */
export function ImportOptions(props: OptionsProps) {
  const t = useImportMessages().imports.options;
  const can = useCan();
  const { choices, onChange } = props;
  return (
    <div className="flex flex-col gap-5">
      {can['users.update'] ? <ModeChoice {...props} /> : null}
      <DefaultRoles {...props} />
      {can['users.setActive'] ? (
        <SwitchField
          label={t.inactive}
          description={t.inactiveDescription}
          checked={!choices.activate}
          onCheckedChange={(inactive) => onChange({ activate: !inactive })}
        />
      ) : null}
      {can['users.restore'] && choices.mode === 'upsert' ? (
        <SwitchField
          label={t.restore}
          description={t.restoreDescription}
          checked={choices.restore}
          onCheckedChange={(restore) => onChange({ restore })}
        />
      ) : null}
      <AdvancedOptions {...props} />
    </div>
  );
}
