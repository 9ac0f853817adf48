import { useImportMessages } from './import-messages';
import {
  IMPORT_DELIMITERS,
  IMPORT_ENCODINGS,
  type ImportDelimiter,
  type ImportEncoding,
  type ImportNewResult,
} from '@app/contracts';
import { CheckboxGroup, FieldShell, NativeSelect, SwitchField, TextField } from '@app/ui';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useState } from 'react';
import { useTRPC } from '../../lib/trpc';
import { ModeChoice, refusalOf } from './import-mode-choice';
import type { ImportChoices } from './import-upload';

interface OptionsProps {
  choices: ImportChoices;
  onChange: (patch: Partial<ImportChoices>) => void;
  /** A refusal of the default roles (422 `defaultRoles.0`, 403), shown under them. */
  rolesError?: string | undefined;
}

/** The default roles as the server offers them (undefined while it has not answered). */
interface DecidedProps {
  roles: ImportNewResult['defaultRoles'] | undefined;
  pending: boolean;
}

/** The roles new users get when their line names none, as GET /users/imports/new offers them to this caller. */
function DefaultRoles({ choices, onChange, rolesError, roles, pending }: OptionsProps & DecidedProps) {
  const t = useImportMessages().imports.options;
  return (
    <CheckboxGroup
      legend={t.defaultRoles}
      description={t.defaultRolesDescription}
      options={(roles ?? []).map((role) => ({
        value: role.name,
        label: role.name,
        disabled: !role.assignable,
        description: role.assignable ? undefined : (role.reason ?? t.roleLocked),
      }))}
      value={choices.defaultRoles}
      onChange={(defaultRoles) => onChange({ defaultRoles })}
      error={rolesError}
      emptyMessage={pending ? null : t.noRoles}
    />
  );
}

/** An option's help, and under it the server's sentence when it refuses the option. */
function OptionHelp({ help, reason }: { help: string; reason: string | null }) {
  return (
    <>
      {help}
      {reason ? <span className="mt-1 block font-medium text-foreground">{reason}</span> : null}
    </>
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
 * The import's options as the server decides them for this caller (GET /users/imports/new, the
 * rule POST /users/imports applies): what it allows can be chosen, what it refuses is shown locked
 * with its sentence. Until it answers nothing but the defaults can be chosen.
 */
export function ImportOptions(props: OptionsProps) {
  const t = useImportMessages().imports.options;
  const trpc = useTRPC();
  const decided = useQuery({ ...trpc.imports.new.queryOptions(), retry: false });
  const { choices, onChange } = props;
  if (decided.isError) {
    return (
      <div className="flex flex-col gap-5">
        <p className="text-sm text-muted-foreground">{t.choicesUnavailable}</p>
        <AdvancedOptions {...props} />
      </div>
    );
  }
  const answer = decided.data;
  const inactive = refusalOf(answer?.options.inactive, t.optionLocked);
  const restore = refusalOf(answer?.options.restore, t.optionLocked);
  return (
    <div className="flex flex-col gap-5">
      <ModeChoice mode={choices.mode} onChange={(mode) => onChange({ mode })} modes={answer?.modes} />
      <DefaultRoles {...props} roles={answer?.defaultRoles} pending={decided.isPending} />
      <SwitchField
        label={t.inactive}
        description={<OptionHelp help={t.inactiveDescription} reason={inactive} />}
        checked={!choices.activate}
        disabled={answer?.options.inactive.allowed !== true}
        onCheckedChange={(off) => onChange({ activate: !off })}
      />
      {choices.mode === 'upsert' ? (
        <SwitchField
          label={t.restore}
          description={<OptionHelp help={t.restoreDescription} reason={restore} />}
          checked={choices.restore}
          disabled={answer?.options.restore.allowed !== true}
          onCheckedChange={(on) => onChange({ restore: on })}
        />
      ) : null}
      <AdvancedOptions {...props} />
    </div>
  );
}
