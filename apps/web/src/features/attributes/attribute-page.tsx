import type { Attribute } from '@app/contracts';
import { Card, PageHeader, Skeleton } from '@app/ui';
import { useQuery } from '@tanstack/react-query';
import { useNavigate, useParams } from 'react-router';
import { BackLink } from '../../components/back-link';
import { useAttributesMessages } from '../../i18n/attributes-messages';
import { toast } from '../../lib/toast';
import { useTRPC } from '../../lib/trpc';
import { useLeaveBack } from '../../lib/use-leave-back';
import { RecordErrorState } from '../errors/record-error-state';
import { AttributeForm } from './attribute-form';
import { EMPTY_ATTRIBUTE_FORM, toAttributeFormValues } from './attribute-form-values';
import { useSaveAttribute } from './use-save-attribute';

export const ATTRIBUTES_PATH = '/settings/attributes';

/** The form, filled in or empty; saving returns to the list. */
function AttributeEditor({ current }: { current: Attribute | null }) {
  const m = useAttributesMessages();
  const navigate = useNavigate();
  const cancel = useLeaveBack(ATTRIBUTES_PATH);
  const { save, dialog } = useSaveAttribute(current, (item) => {
    toast.success(current ? m.attributes.saved(item.label) : m.attributes.created(item.label));
    void navigate(ATTRIBUTES_PATH, { replace: true });
  });
  return (
    <>
      <AttributeForm
        initial={current ? toAttributeFormValues(current) : EMPTY_ATTRIBUTE_FORM}
        creating={current === null}
        onSubmit={save}
        onCancel={cancel}
      />
      {dialog}
    </>
  );
}

/** `/settings/attributes/new`: declare an attribute. */
export function AttributeNewPage() {
  const m = useAttributesMessages();
  return (
    <>
      <title>{m.app.documentTitle(m.attributes.newTitle)}</title>
      <BackLink to={ATTRIBUTES_PATH} label={m.attributes.back} />
      <PageHeader className="mt-3" title={m.attributes.newTitle} />
      <div className="mt-8 max-w-4xl">
        <AttributeEditor current={null} />
      </div>
    </>
  );
}

/** `/settings/attributes/:key`: change an attribute (a change that could break values is dry-run first). */
export function AttributeEditPage() {
  const m = useAttributesMessages();
  const trpc = useTRPC();
  const key = useParams().key ?? '';
  const show = useQuery({ ...trpc.attributes.show.queryOptions({ key }), gcTime: 0 });
  const item = show.data?.item;
  const title = item ? m.attributes.editTitle(item.label) : m.attributes.back;

  return (
    <>
      <title>{m.app.documentTitle(title)}</title>
      <BackLink to={ATTRIBUTES_PATH} label={m.attributes.back} />
      <PageHeader className="mt-3" title={item ? title : m.common.loading} />
      <div className="mt-8 max-w-4xl">
        {item ? (
          <AttributeEditor key={item.updated_at} current={item} />
        ) : show.isError ? (
          <RecordErrorState
            error={show.error}
            notFoundTitle={m.attributes.notFoundTitle}
            notFoundDescription={m.attributes.notFoundDescription}
            errorTitle={m.attributes.errorTitle}
            onRetry={() => void show.refetch()}
            retrying={show.isFetching}
            back={{ to: ATTRIBUTES_PATH, label: m.attributes.back }}
          />
        ) : (
          <Card role="status" aria-label={m.common.loading} className="space-y-5 p-6">
            <Skeleton className="h-9 w-full" />
            <Skeleton className="h-9 w-full" />
            <Skeleton className="h-40 w-full" />
          </Card>
        )}
      </div>
    </>
  );
}
