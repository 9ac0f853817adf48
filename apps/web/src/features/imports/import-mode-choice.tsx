import { useImportMessages } from './import-messages';
import { type ActionState, IMPORT_MODES, type ImportMode } from '@app/contracts';
import { cn } from '@app/ui';
import { useId } from 'react';

/** The server's reason for refusing a choice, or null when it allows it (or has not answered yet). */
export const refusalOf = (state: ActionState | undefined, fallback: string): string | null =>
  !state || state.allowed ? null : (state.message ?? fallback);

interface ModeChoiceProps {
  mode: ImportMode;
  onChange: (mode: ImportMode) => void;
  /** Each mode as GET /users/imports/new decided it; undefined while it is on its way. */
  modes: Record<ImportMode, ActionState> | undefined;
}

/**
 * Create or upsert, as radio buttons: each mode the server allows can be picked, each it refuses
 * is shown locked with its sentence (the one the submission would refuse it with).
 */
export function ModeChoice({ mode: chosen, onChange, modes }: ModeChoiceProps) {
  const t = useImportMessages().imports;
  const name = useId();
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-1.5 text-sm font-medium text-foreground">{t.options.mode}</legend>
      {IMPORT_MODES.map((mode) => {
        const allowed = modes?.[mode].allowed === true;
        const reason = refusalOf(modes?.[mode], t.options.optionLocked);
        const id = `${name}-${mode}`;
        return (
          // The label's ::after covers the row, so the whole row picks the mode, while the radio's
          // name stays the label alone (the help and any refusal are its description).
          <div
            key={mode}
            className={cn(
              'relative flex items-start gap-3 rounded-lg border border-border px-3 py-2.5 has-checked:border-primary has-checked:bg-primary/5',
              !allowed && 'bg-surface-muted/40',
            )}
          >
            <input
              id={id}
              type="radio"
              name={name}
              value={mode}
              checked={chosen === mode}
              disabled={!allowed}
              onChange={() => onChange(mode)}
              aria-describedby={cn(`${id}-description`, reason && `${id}-reason`)}
              className="relative z-10 mt-1 accent-primary disabled:cursor-not-allowed"
            />
            <span className="min-w-0">
              <label
                htmlFor={id}
                className={cn(
                  'block text-sm font-medium after:absolute after:inset-0',
                  allowed ? 'cursor-pointer text-foreground' : 'cursor-not-allowed text-muted-foreground',
                )}
              >
                {t.modes[mode].label}
              </label>
              <span id={`${id}-description`} className="block text-xs text-muted-foreground">
                {t.modes[mode].description}
              </span>
              {reason ? (
                <span id={`${id}-reason`} className="mt-1 block text-xs font-medium text-pretty text-foreground">
                  {reason}
                </span>
              ) : null}
            </span>
          </div>
        );
      })}
    </fieldset>
  );
}
