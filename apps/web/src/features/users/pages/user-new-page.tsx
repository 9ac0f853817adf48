import type { UserCreateInput } from '@app/contracts';
import { FormError, PageHeader } from '@app/ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useMemo, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { toast } from '../../../lib/toast';
import { useUserPagesMessages } from '../../../i18n/user-pages-messages';
import { apiErrorMessage } from '../../../lib/api-error';
import { useTRPC } from '../../../lib/trpc';
import { BackLink } from '../../../components/back-link';
import { useLeaveBack } from '../../../lib/use-leave-back';
import { useUserAccessMessages } from '../../../i18n/user-access-messages';
import { AccessLinkDialog } from './access-link-dialog';
import { useNewUserFormData } from './use-role-options';
import { UserFormFields } from './user-form-fields';
import { FormFrame } from '../../../components/form-frame';
import { userCreateResolver } from './user-form-resolvers';
import { EMPTY_USER_FORM, USER_FORM_FIELDS, type UserFormValues } from './user-form-values';
import { applyUserFormErrors, withAttributeValues } from '../../attributes/user-attribute-form';

/**
 * `/users/new` (users.create): the user form, empty; roles, direct permissions and the active switch
 * as `GET /users/new` offers them.
 */
export function UserNewPage() {
  const m = useUserPagesMessages();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const cancel = useLeaveBack('/users');
  const { roleOptions, showActive, permissionOptions, attributeFields } = useNewUserFormData();
  const created = useRef(false);
  // The attributes arrive with GET /users/new, after the form is made: the resolver reads them then.
  const fields = useRef(attributeFields);
  fields.current = attributeFields;
  const resolver = useMemo(() => withAttributeValues(userCreateResolver, fields, { current: null }), []);
  const form = useForm<UserFormValues, unknown, UserCreateInput>({ resolver, defaultValues: EMPTY_USER_FORM });
  // Read while rendering: react-hook-form only tracks the dirty state of a form that shows it.
  const { isDirty } = form.formState;
  const [formError, setFormError] = useState<string | null>(null);
  const create = useMutation(trpc.users.create.mutationOptions());
  const access = useUserAccessMessages();
  const [link, setLink] = useState<{ user: { id: number; name: string }; url: string; expiresAt: string } | null>(null);
  // Replace: Back from the new user's page returns to where the form was opened from.
  const openUser = (id: number) => void navigate(`/users/${id}`, { replace: true });

  const submit = form.handleSubmit(({ is_active, roles_ids, permissions, ...rest }) => {
    setFormError(null);
    create.mutate(
      {
        ...rest,
        ...(roleOptions ? { roles_ids } : {}),
        ...(permissionOptions ? { permissions } : {}),
        ...(showActive ? { is_active } : {}),
      },
      {
        onSuccess: ({ item, invitation, url }) => {
          created.current = true;
          toast.success(invitation ? access.userAccess.createdInvited(item.name) : m.userForm.created(item.name));
          // Stale, not refetched now: the page being left would only redraw under the navigation.
          void queryClient.invalidateQueries({ ...trpc.users.pathFilter(), refetchType: 'none' });
          // Without mail the invitation's link is answered: shown here once, then on to the user.
          if (url && invitation) setLink({ user: item, url, expiresAt: invitation.expires_at });
          else openUser(item.id);
        },
        onError: (error) => {
          const { applied, unplaced } = applyUserFormErrors(error, USER_FORM_FIELDS, attributeFields, form.setError);
          if (!applied || unplaced.length > 0) setFormError(unplaced.join(' ') || apiErrorMessage(error, m));
        },
      },
    );
  });

  return (
    <>
      <title>{m.app.documentTitle(m.userForm.newTitle)}</title>
      <BackLink to="/users" label={m.userPage.backToUsers} />
      <PageHeader className="mt-3" title={m.userForm.newTitle} description={m.userForm.newSubtitle} />
      <div className="mt-8 max-w-4xl">
        <FormFrame
          onSubmit={submit}
          submitLabel={m.userForm.create}
          pending={create.isPending}
          onCancel={cancel}
          shouldBlockLeaving={() => !created.current && isDirty}
          notices={formError ? <FormError title={m.userForm.failedTitle} message={formError} /> : undefined}
        >
          <UserFormFields
            form={form}
            mode="create"
            roleOptions={roleOptions}
            showActive={showActive}
            permissionOptions={permissionOptions}
            attributeFields={attributeFields}
          />
        </FormFrame>
      </div>
      <AccessLinkDialog
        userName={link?.user.name ?? ''}
        link={link ? { action: 'invite', url: link.url, expiresAt: link.expiresAt } : null}
        onClose={() => (link ? openUser(link.user.id) : undefined)}
      />
    </>
  );
}
