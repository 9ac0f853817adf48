import type { UserEditResult, UserUpdateInput } from '@app/contracts';
import { FormError } from '@app/ui';
import { ConflictBanner, type ConflictState } from '../../../components/conflict-banner';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useMemo, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { toast } from '../../../lib/toast';
import { useUserPagesMessages } from '../../../i18n/user-pages-messages';
import { apiErrorCode, apiErrorMessage } from '../../../lib/api-error';
import { useTRPC } from '../../../lib/trpc';
import { sameFormValue } from '../../../lib/version-conflict';
import { useLeaveBack } from '../../../lib/use-leave-back';
import { UserFormFields } from './user-form-fields';
import { FormFrame } from '../../../components/form-frame';
import { userUpdateResolver } from './user-form-resolvers';
import { applyUserFormErrors, withAttributeValues } from '../../attributes/user-attribute-form';
import { CONFLICT_FIELDS, toFormValues, USER_FORM_FIELDS, type UserFormValues } from './user-form-values';
import { userConflictRows, userKeepingEdits } from './user-conflict';

/** What a rebase may set on the form: every field another administrator can change, the attributes, the typed password. */
const REBASED_FIELDS = [
  ...CONFLICT_FIELDS,
  'attributes',
  'password',
  'password_confirmation',
] as const satisfies ReadonlyArray<keyof UserFormValues>;

export interface UserEditFormProps {
  id: number;
  data: UserEditResult;
  /** Fetches `users.edit` again and returns the latest record (throws when that fails). */
  refetchLatest: () => Promise<UserEditResult | undefined>;
}

export function UserEditForm({ id, data, refetchLatest }: UserEditFormProps) {
  const m = useUserPagesMessages();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const cancel = useLeaveBack(`/users/${id}`);
  const opened = useRef<UserFormValues>(toFormValues(data.item));
  const saved = useRef(false);
  const attributeFields = data.options.attributes;
  // Only the attributes changed since the form opened (or since a reload) are judged and sent.
  const resolver = useMemo(
    () =>
      withAttributeValues(
        userUpdateResolver,
        { current: attributeFields },
        {
          get current() {
            return opened.current.attributes ?? {};
          },
        },
      ),
    [attributeFields],
  );
  const form = useForm<UserFormValues, unknown, UserUpdateInput>({ resolver, defaultValues: opened.current });
  // Read while rendering: react-hook-form only tracks the dirty state of a form that shows it.
  const { isDirty } = form.formState;
  const [formError, setFormError] = useState<string | null>(null);
  const [conflict, setConflict] = useState<ConflictState>(null);
  // The server's version a 409 read, until the caller decides what to do with their edits.
  const latest = useRef<UserEditResult | null>(null);
  const update = useMutation(trpc.users.update.mutationOptions());
  // The server decides whether this user's status may change (permission, record, rules) and
  // ships it as `can.setActive`; the form only shows that decision.
  const showActive = data.can.setActive;

  const compare = async (message: string) => {
    setConflict({ stage: 'reading', message });
    try {
      const read = await refetchLatest();
      // The query answers nothing only when it was never enabled: the page holds an id, so not here.
      if (!read) throw new Error('The record was not read.');
      latest.current = read;
      const versions = { opened: opened.current, mine: form.getValues(), latest: toFormValues(read.item) };
      setConflict({ stage: 'compared', message, rows: userConflictRows(versions, read.options, m) });
    } catch (error) {
      setConflict({ stage: 'unread', message, error: apiErrorMessage(error, m) });
    }
  };

  const submit = form.handleSubmit(({ is_active, ...rest }) => {
    setFormError(null);
    update.mutate(
      { id, ...rest, ...(showActive ? { is_active } : {}) },
      {
        onSuccess: () => {
          saved.current = true;
          toast.success(m.userForm.saved);
          void navigate(`/users/${id}`, { replace: true });
          // Stale, not refetched now: the page being left would only redraw under the navigation.
          void queryClient.invalidateQueries({ ...trpc.users.pathFilter(), refetchType: 'none' });
        },
        onError: (error) => {
          if (apiErrorCode(error) === 'VERSION_CONFLICT') {
            void compare(apiErrorMessage(error, m));
            return;
          }
          const { applied, unplaced } = applyUserFormErrors(error, USER_FORM_FIELDS, attributeFields, form.setError);
          if (!applied || unplaced.length > 0) setFormError(unplaced.join(' ') || apiErrorMessage(error, m));
        },
      },
    );
  });

  /** Carries on from the server's version (its values, its version token), with or without the caller's edits on top. */
  const rebase = (keepEdits: boolean) => {
    const read = latest.current;
    if (!read) return;
    const mine = form.getValues();
    const theirs = toFormValues(read.item);
    const next = keepEdits
      ? userKeepingEdits({ opened: opened.current, mine, latest: theirs }, read.options.attributes)
      : { ...theirs, password: mine.password, password_confirmation: mine.password_confirmation };
    opened.current = theirs;
    // Their version becomes what the form is compared against, so the kept edits still count as unsaved.
    form.reset(theirs);
    for (const field of REBASED_FIELDS) {
      if (!sameFormValue(next[field], theirs[field])) form.setValue(field, next[field], { shouldDirty: true });
    }
    latest.current = null;
    setFormError(null);
    setConflict({ stage: 'rebased', keptEdits: keepEdits });
  };

  return (
    <FormFrame
      onSubmit={submit}
      submitLabel={m.userForm.save}
      pending={update.isPending}
      onCancel={cancel}
      shouldBlockLeaving={() => !saved.current && isDirty}
      notices={
        conflict || formError ? (
          <>
            <ConflictBanner
              conflict={conflict}
              strings={m.userForm.conflict}
              onRetry={() => void compare(conflict?.stage === 'unread' ? conflict.message : '')}
              onKeep={() => rebase(true)}
              onDiscard={() => rebase(false)}
            />
            {formError ? <FormError title={m.userForm.failedTitle} message={formError} /> : null}
          </>
        ) : undefined
      }
    >
      <UserFormFields
        form={form}
        mode="edit"
        roleOptions={data.options.roles}
        showActive={showActive}
        permissionOptions={data.options.permissions}
        attributeFields={attributeFields}
      />
    </FormFrame>
  );
}
