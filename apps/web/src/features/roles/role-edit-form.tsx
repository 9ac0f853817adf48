import type { PermissionRow, RoleItem, RoleShowResult } from '@app/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { ConflictBanner, type ConflictState } from '../../components/conflict-banner';
import { toast } from '../../lib/toast';
import { useMessages } from '../../i18n/messages';
import { useRoleEditorMessages } from '../../i18n/role-editor-messages';
import { apiErrorCode, apiErrorMessage } from '../../lib/api-error';
import { useTRPC } from '../../lib/trpc';
import { useLeaveBack } from '../../lib/use-leave-back';
import { keepingEdits, sameFormValue } from '../../lib/version-conflict';
import { ROLE_FORM_FIELDS, RoleForm, toRoleFormValues, useRoleForm } from './role-form';
import { roleConflictRows } from './role-conflict';

export interface RoleEditFormProps {
  item: RoleItem;
  catalogue: readonly PermissionRow[];
  /** Reads the role again and returns the latest (throws when that fails). */
  refetchLatest: () => Promise<RoleShowResult | undefined>;
}

/** The edit form: saves with the version it was read at; a 409 compares the server's version with the form. */
export function RoleEditForm({ item, catalogue, refetchLatest }: RoleEditFormProps) {
  const m = useMessages();
  const r = useRoleEditorMessages();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const cancel = useLeaveBack(`/roles/${item.id}`);
  const form = useRoleForm(toRoleFormValues(item));
  // What the form was read at: the version a save sends, and the set the impact is measured from.
  const [base, setBase] = useState(item);
  const [conflict, setConflict] = useState<ConflictState>(null);
  // The server's version a 409 read, until the caller decides what to do with their edits.
  const latest = useRef<RoleItem | null>(null);
  const update = useMutation(trpc.roles.update.mutationOptions());

  const compare = async (message: string) => {
    setConflict({ stage: 'reading', message });
    try {
      const read = (await refetchLatest())?.item;
      // The query answers nothing only when it was never enabled: the page holds an id, so not here.
      if (!read) throw new Error('The record was not read.');
      latest.current = read;
      const versions = { opened: toRoleFormValues(base), mine: form.getValues(), latest: toRoleFormValues(read) };
      setConflict({ stage: 'compared', message, rows: roleConflictRows(versions, r) });
    } catch (error) {
      setConflict({ stage: 'unread', message, error: apiErrorMessage(error, m) });
    }
  };

  const save = async (input: Parameters<typeof update.mutateAsync>[0]) => {
    try {
      await update.mutateAsync(input);
    } catch (error) {
      if (apiErrorCode(error) !== 'VERSION_CONFLICT') throw error;
      void compare(apiErrorMessage(error, m));
      return false;
    }
    setConflict(null);
    toast.success(r.form.saved);
    void navigate(`/roles/${item.id}`, { replace: true });
    // Stale, not refetched now: the page being left would only redraw under the navigation.
    void queryClient.invalidateQueries({ ...trpc.roles.pathFilter(), refetchType: 'none' });
    void queryClient.invalidateQueries({ ...trpc.permissions.pathFilter(), refetchType: 'none' });
    return true;
  };

  /** Carries on from the server's version (its values, its version token), with or without the caller's edits on top. */
  const rebase = (keepEdits: boolean) => {
    const read = latest.current;
    if (!read) return;
    const theirs = toRoleFormValues(read);
    const versions = { opened: toRoleFormValues(base), mine: form.getValues(), latest: theirs };
    const next = keepEdits ? keepingEdits(ROLE_FORM_FIELDS, versions) : theirs;
    // Their version becomes what the form is compared against, so the kept edits still count as unsaved.
    form.reset(theirs);
    for (const field of ROLE_FORM_FIELDS) {
      if (!sameFormValue(next[field], theirs[field])) form.setValue(field, next[field], { shouldDirty: true });
    }
    setBase(read);
    latest.current = null;
    setConflict({ stage: 'rebased', keptEdits: keepEdits });
  };

  return (
    <RoleForm
      form={form}
      catalogue={catalogue}
      role={{
        id: base.id,
        permissions: (base.permissions ?? []).map((permission) => permission.name),
        requireTwoFactor: base.require_two_factor,
      }}
      submitLabel={r.form.save}
      onCancel={cancel}
      onSubmit={(input) => save({ id: item.id, ...input, version: base.version })}
      notices={
        conflict ? (
          <ConflictBanner
            conflict={conflict}
            strings={r.form.conflict}
            onRetry={() => void compare(conflict.stage === 'unread' ? conflict.message : '')}
            onKeep={() => rebase(true)}
            onDiscard={() => rebase(false)}
          />
        ) : undefined
      }
    />
  );
}
