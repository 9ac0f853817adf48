import {
  Button,
  CheckboxGroup,
  FieldShell,
  NativeSelect,
  Popover,
  PopoverContent,
  PopoverTrigger,
  SwitchField,
  TextField,
} from '@app/ui';
import { SlidersHorizontal } from 'lucide-react';
import { type FormEvent, Fragment, useId, useState } from 'react';
import {
  countInForce,
  type DateRangeValue,
  type FilterDraft,
  type FilterField,
  fromDraft,
  toDraft,
} from './filter-fields';

/** A resource's words for its filter form. */
export interface FiltersPopoverStrings {
  button: string;
  buttonCount: (count: number) => string;
  heading: string;
  apply: string;
  reset: string;
}

export interface FiltersPopoverProps<F extends object> {
  fields: readonly FilterField[];
  filters: F;
  onApply: (filters: F) => void;
  strings: FiltersPopoverStrings;
}

/**
 * The filters in force that no field of the form stands for (an attribute's, before the answer
 * naming the attributes has arrived): applying the form keeps them rather than dropping them unseen.
 */
function notShown(fields: readonly FilterField[], filters: Readonly<Record<string, unknown>>) {
  const shown = new Set(fields.map((field) => field.path?.[0] ?? field.key));
  return Object.fromEntries(Object.entries(filters).filter(([key]) => !shown.has(key)));
}

/** Options beyond which a ticked list scrolls. */
const LONG_LIST = 8;

function Field({
  field,
  id,
  value,
  onChange,
}: {
  field: FilterField;
  id: string;
  value: FilterDraft[string];
  onChange: (value: FilterDraft[string]) => void;
}) {
  const controlId = `${id}-${field.key}`;
  switch (field.kind) {
    case 'text':
      return (
        <TextField
          label={field.label}
          value={value as string}
          onChange={(e) => onChange(e.target.value)}
          maxLength={field.maxLength ?? 255}
        />
      );
    case 'select':
      return (
        <FieldShell controlId={controlId} label={field.label}>
          <NativeSelect id={controlId} value={value as string} onChange={(e) => onChange(e.target.value)}>
            <option value="">{field.allLabel}</option>
            {field.options.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </NativeSelect>
        </FieldShell>
      );
    case 'multi': {
      const options = field.options ?? [];
      const group = (
        <CheckboxGroup<string | number>
          legend={field.label}
          description={field.description}
          options={options.map((option) => ({ value: option.value, label: option.label }))}
          value={value as Array<string | number>}
          onChange={onChange}
          emptyMessage={field.emptyMessage}
        />
      );
      // A long list scrolls inside the form rather than pushing Apply off the screen.
      return options.length > LONG_LIST ? <div className="max-h-64 overflow-y-auto pr-1">{group}</div> : group;
    }
    case 'fixed':
      return null;
    case 'flag':
      return (
        <SwitchField
          label={field.label}
          checked={value === 'true'}
          onCheckedChange={(checked) => onChange(checked ? 'true' : '')}
        />
      );
    case 'dateRange': {
      const range = value as DateRangeValue;
      return (
        <div className="grid grid-cols-2 gap-3">
          <TextField
            type={field.input ?? 'date'}
            label={field.fromLabel}
            value={range.from ?? ''}
            max={range.to || undefined}
            step={field.input === 'number' ? 'any' : undefined}
            onChange={(e) => onChange({ ...range, from: e.target.value })}
          />
          <TextField
            type={field.input ?? 'date'}
            label={field.toLabel}
            value={range.to ?? ''}
            min={range.from || undefined}
            step={field.input === 'number' ? 'any' : undefined}
            onChange={(e) => onChange({ ...range, to: e.target.value })}
          />
        </div>
      );
    }
  }
}

/** Every filter of a resource in one small form: edited as a draft, applied together (one history entry). */
export function FiltersPopover<F extends object>({ fields, filters, onApply, strings: t }: FiltersPopoverProps<F>) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const current = filters as Readonly<Record<string, unknown>>;
  const [draft, setDraft] = useState<FilterDraft>(() => toDraft(fields, current));
  const count = countInForce(fields, current);

  const openChange = (next: boolean) => {
    if (next) setDraft(toDraft(fields, current));
    setOpen(next);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply({ ...notShown(fields, current), ...fromDraft(fields, draft) } as F);
    setOpen(false);
  };

  return (
    <Popover open={open} onOpenChange={openChange}>
      <PopoverTrigger asChild>
        <Button variant="secondary" size="sm" aria-label={count > 0 ? t.buttonCount(count) : t.button}>
          <SlidersHorizontal aria-hidden="true" />
          {/* The space is not drawn (a flex item's trailing space), but it parts word and count in
              the text ("Filters 2", not "Filters2"), so the name "Filters, 2 applied" holds what is shown. */}
          <span>{`${t.button} `}</span>
          {count > 0 ? (
            <span className="-mr-1 rounded-full bg-primary px-1.5 text-[0.6875rem] leading-4 font-semibold text-primary-foreground tabular-nums">
              {count}
            </span>
          ) : null}
        </Button>
      </PopoverTrigger>
      <PopoverContent aria-labelledby={`${id}-heading`} className="w-[22rem] p-0">
        <form onSubmit={submit} className="flex flex-col">
          <h2 id={`${id}-heading`} className="px-4 pt-4 text-sm font-semibold">
            {t.heading}
          </h2>
          <div className="grid gap-4 p-4">
            {fields.map((field, index) => (
              <Fragment key={field.key}>
                {field.group && field.group !== fields[index - 1]?.group ? (
                  <h3 className="-mb-1 border-t border-border pt-4 text-xs font-semibold tracking-wide text-muted-foreground uppercase">
                    {field.group}
                  </h3>
                ) : null}
                <Field
                  field={field}
                  id={id}
                  value={draft[field.key] ?? ''}
                  onChange={(value) => setDraft((d) => ({ ...d, [field.key]: value }))}
                />
              </Fragment>
            ))}
          </div>
          <div className="sticky bottom-0 z-10 flex justify-between gap-2 border-t border-border bg-surface px-4 py-3">
            <Button variant="ghost" size="sm" onClick={() => setDraft(toDraft(fields, {}))}>
              {t.reset}
            </Button>
            <Button type="submit" size="sm">
              {t.apply}
            </Button>
          </div>
        </form>
      </PopoverContent>
    </Popover>
  );
}
