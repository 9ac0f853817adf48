import { Button, FieldError, TextField } from '@app/ui';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type ReactNode, useEffect, useState } from 'react';
import { useAttributesMessages } from '../../i18n/attributes-messages';
import { useTRPC } from '../../lib/trpc';
import { useCan } from '../auth/use-session';

const SEARCH_DELAY_MS = 250;
const RESULTS = 6;

export interface UserPickerProps {
  label: string;
  description?: ReactNode;
  labelAside?: ReactNode;
  /** The chosen user's id as text; "" for none. */
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
}

/** The chosen user by name and e-mail (looked up by id), or "User #7" until then. */
function ChosenUser({ id }: { id: number }) {
  const m = useAttributesMessages();
  const trpc = useTRPC();
  const user = useQuery({ ...trpc.users.show.queryOptions({ id }), retry: false });
  return user.data ? (
    <span className="min-w-0">
      <span className="block truncate text-sm font-medium text-foreground">{user.data.item.name}</span>
      <span className="block truncate text-xs text-muted-foreground">{user.data.item.email}</span>
    </span>
  ) : (
    <span className="text-sm text-foreground">{m.attributeFields.userId(id)}</span>
  );
}

/**
 * A `user` attribute's value: a user found by name or e-mail (users.list's search), shown by name
 * once chosen. Without users.view nobody can be searched: the id is typed instead.
 */
export function UserPicker({ label, description, labelAside, value, onChange, error }: UserPickerProps) {
  const m = useAttributesMessages();
  const t = m.attributeFields;
  const trpc = useTRPC();
  const can = useCan();
  const [search, setSearch] = useState('');
  const [settled, setSettled] = useState('');
  useEffect(() => {
    const timer = window.setTimeout(() => setSettled(search.trim()), SEARCH_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [search]);
  const chosen = Number(value);
  const matches = useQuery({
    ...trpc.users.list.queryOptions({ q: settled, perPage: 10 }),
    enabled: settled !== '' && can['users.view'] === true,
    placeholderData: keepPreviousData,
  });

  if (!can['users.view']) {
    return (
      <TextField
        label={label}
        description={description}
        labelAside={labelAside}
        type="number"
        inputMode="numeric"
        min={1}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        error={error}
      />
    );
  }
  if (value.trim() !== '' && Number.isSafeInteger(chosen) && chosen > 0) {
    return (
      <fieldset className="flex min-w-0 flex-col gap-1.5">
        <legend className="mb-1.5 flex w-full items-baseline justify-between gap-3">
          <span className="text-sm font-medium text-foreground">{label}</span>
          {labelAside ? <span className="text-xs text-muted-foreground">{labelAside}</span> : null}
        </legend>
        <div className="flex items-center gap-3 rounded-md border border-border bg-surface px-3 py-2">
          <ChosenUser id={chosen} />
          <span className="ml-auto flex shrink-0 gap-1.5">
            <Button variant="secondary" size="sm" onClick={() => onChange('')}>
              {t.userChange}
            </Button>
          </span>
        </div>
        {description ? <p className="text-xs text-pretty text-muted-foreground">{description}</p> : null}
        <FieldError message={error} />
      </fieldset>
    );
  }
  const rows = settled === '' ? [] : (matches.data?.rows ?? []).slice(0, RESULTS);
  return (
    <div className="flex flex-col gap-1.5">
      <TextField
        label={label}
        description={description}
        labelAside={labelAside}
        type="search"
        autoComplete="off"
        placeholder={t.userSearch}
        value={search}
        onChange={(event) => setSearch(event.target.value)}
        error={error}
      />
      {settled === '' ? null : (
        <section aria-label={t.userResults(label)} aria-live="polite" className="text-sm">
          {matches.isFetching && rows.length === 0 ? (
            <p className="px-1 text-muted-foreground">{t.userSearching}</p>
          ) : rows.length === 0 ? (
            <p className="px-1 text-muted-foreground">{t.userNoMatch}</p>
          ) : (
            <ul className="divide-y divide-border overflow-hidden rounded-md border border-border">
              {rows.map((user) => (
                <li key={user.id}>
                  <button
                    type="button"
                    onClick={() => {
                      onChange(String(user.id));
                      setSearch('');
                    }}
                    className="flex w-full flex-col items-start px-3 py-2 text-left hover:bg-surface-muted focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-ring"
                  >
                    <span className="font-medium text-foreground">{user.name}</span>
                    <span className="text-xs text-muted-foreground">{user.email}</span>
                  </button>
                </li>
              ))}
            </ul>
          )}
        </section>
      )}
    </div>
  );
}
