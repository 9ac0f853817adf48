import type { NamedRef } from '@app/contracts';
import {
  Button,
  CheckboxGroup,
  FieldShell,
  NativeSelect,
  Popover,
  PopoverContent,
  PopoverTrigger,
  TextField,
} from '@app/ui';
import { SlidersHorizontal } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { useMessages } from '../../../i18n/messages';
import { filterCount, type StatusFilter, type TrashView, type UsersListFilters } from './users-list-state';

interface Draft {
  name: string;
  email: string;
  role_id: number[];
  is_active: StatusFilter | '';
  from: string;
  to: string;
  trashed: TrashView | '';
}

function toDraft(filters: UsersListFilters): Draft {
  return {
    name: filters.name ?? '',
    email: filters.email ?? '',
    role_id: filters.role_id ?? [],
    is_active: filters.is_active ?? '',
    from: filters.created_between?.from ?? '',
    to: filters.created_between?.to ?? '',
    trashed: filters.trashed ?? '',
  };
}

function fromDraft(draft: Draft): UsersListFilters {
  const out: UsersListFilters = {};
  if (draft.name.trim()) out.name = draft.name.trim();
  if (draft.email.trim()) out.email = draft.email.trim();
  if (draft.role_id.length > 0) out.role_id = draft.role_id;
  if (draft.is_active) out.is_active = draft.is_active;
  if (draft.from || draft.to) {
    out.created_between = { ...(draft.from ? { from: draft.from } : {}), ...(draft.to ? { to: draft.to } : {}) };
  }
  if (draft.trashed) out.trashed = draft.trashed;
  return out;
}

export interface UsersFiltersPopoverProps {
  filters: UsersListFilters;
  roles: readonly NamedRef[];
  canSeeTrash: boolean;
  onApply: (filters: UsersListFilters) => void;
}

/** Every filter in one small form: edited as a draft, applied together (one history entry). */
export function UsersFiltersPopover({ filters, roles, canSeeTrash, onApply }: UsersFiltersPopoverProps) {
  const m = useMessages();
  const t = m.usersList.filters;
  const id = useId();
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState<Draft>(() => toDraft(filters));
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const count = filterCount(filters);

  const openChange = (next: boolean) => {
    if (next) setDraft(toDraft(filters));
    setOpen(next);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply(fromDraft(draft));
    setOpen(false);
  };

  return (
    <Popover open={open} onOpenChange={openChange}>
      <PopoverTrigger asChild>
        <Button variant="secondary" size="sm" aria-label={count > 0 ? t.buttonCount(count) : t.button}>
          <SlidersHorizontal aria-hidden="true" />
          <span>{t.button}</span>
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
            <TextField
              label={t.name}
              value={draft.name}
              onChange={(e) => set('name', e.target.value)}
              maxLength={255}
            />
            <TextField
              label={t.email}
              value={draft.email}
              onChange={(e) => set('email', e.target.value)}
              maxLength={255}
            />
            <FieldShell controlId={`${id}-status`} label={t.status}>
              <NativeSelect
                id={`${id}-status`}
                value={draft.is_active}
                onChange={(e) => set('is_active', e.target.value as Draft['is_active'])}
              >
                <option value="">{t.statusAll}</option>
                <option value="active">{t.statusActive}</option>
                <option value="inactive">{t.statusInactive}</option>
              </NativeSelect>
            </FieldShell>
            <CheckboxGroup
              legend={t.roles}
              description={t.rolesHint}
              options={roles.map((role) => ({ value: role.id, label: role.name }))}
              value={draft.role_id}
              onChange={(value) => set('role_id', value)}
              emptyMessage={t.noRoles}
            />
            <div className="grid grid-cols-2 gap-3">
              <TextField
                type="date"
                label={t.createdFrom}
                value={draft.from}
                max={draft.to || undefined}
                onChange={(e) => set('from', e.target.value)}
              />
              <TextField
                type="date"
                label={t.createdTo}
                value={draft.to}
                min={draft.from || undefined}
                onChange={(e) => set('to', e.target.value)}
              />
            </div>
            {canSeeTrash ? (
              <FieldShell controlId={`${id}-trash`} label={t.trash}>
                <NativeSelect
                  id={`${id}-trash`}
                  value={draft.trashed}
                  onChange={(e) => set('trashed', e.target.value as Draft['trashed'])}
                >
                  <option value="">{t.trashWithout}</option>
                  <option value="with">{t.trashWith}</option>
                  <option value="only">{t.trashOnly}</option>
                </NativeSelect>
              </FieldShell>
            ) : null}
          </div>
          <div className="sticky bottom-0 flex justify-between gap-2 border-t border-border bg-surface px-4 py-3">
            <Button variant="ghost" size="sm" onClick={() => setDraft(toDraft({}))}>
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
