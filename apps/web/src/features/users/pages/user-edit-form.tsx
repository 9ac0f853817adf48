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
import { useLeaveBack } from '../../../lib/use-leave-back';
import { UserFormFields } from './user-form-fields';
import { FormFrame } from '../../../components/form-frame';
import { userUpdateResolver } from './user-form-resolvers';
import { applyUserFormErrors, withAttributeValues } from '../../attributes/user-attribute-form';
import {
  type ConflictField,
  type DraftValues,
  draftDifferences,
  toFormValues,
  USER_FORM_FIELDS,
  type UserFormValues,
} from './user-form-values';

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
  const [draft, setDraft] = useState<DraftValues>({});
  const [reloading, setReloading] = useState(false);
  const update = useMutation(trpc.users.update.mutationOptions());
  // The server decides whether this user's status may change (permission, record, rules) and
  // ships it as `can.setActive`; the form only shows that decision.
  const showActive = data.can.setActive;

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
            setConflict({ stage: 'detected', message: apiErrorMessage(error, m) });
            return;
          }
          const { applied, unplaced } = applyUserFormErrors(error, USER_FORM_FIELDS, attributeFields, form.setError);
          if (!applied || unplaced.length > 0) setFormError(unplaced.join(' ') || apiErrorMessage(error, m));
        },
      },
    );
  });

  const reload = async () => {
    setReloading(true);
    try {
      const mine = form.getValues();
      const latest = await refetchLatest();
      if (!latest) return;
      const latestValues = toFormValues(latest.item);
      const differences = draftDifferences(mine, opened.current, latestValues);
      opened.current = latestValues;
      // The typed password is nobody else's business: it survives the reload.
      form.reset({ ...latestValues, password: mine.password, password_confirmation: mine.password_confirmation });
      setDraft(differences);
      setFormError(null);
      setConflict({ stage: 'reloaded', hasDraft: Object.keys(differences).length > 0 });
    } catch (error) {
      toast.error(apiErrorMessage(error, m));
    } finally {
      setReloading(false);
    }
  };

  const restoreDraft = (field: ConflictField) => {
    const value = draft[field];
    if (value !== undefined) form.setValue(field, value, { shouldDirty: true, shouldValidate: true });
    const { [field]: _used, ...rest } = draft;
    setDraft(rest);
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
              reloading={reloading}
              onReload={() => void reload()}
              onDiscard={() => {
                setDraft({});
                setConflict(null);
              }}
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
        draft={draft}
        onUseDraft={restoreDraft}
      />
    </FormFrame>
  );
}
