import type { Attribute, AttributeImpact } from '@app/contracts';
import { ConfirmDialog } from '@app/ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useAttributesMessages } from '../../i18n/attributes-messages';
import { apiErrorMessage } from '../../lib/api-error';
import { toast } from '../../lib/toast';
import { useTRPC } from '../../lib/trpc';
import { ImpactSummary } from './attribute-impact';

/**
 * "Delete this attribute?": `ask(item)` opens the question and asks the server at once how many
 * values would go (a dry run); confirming deletes the attribute with them.
 */
export function useDeleteAttribute() {
  const m = useAttributesMessages();
  const t = m.attributeImpact;
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [item, setItem] = useState<Attribute | null>(null);
  const [impact, setImpact] = useState<AttributeImpact | null>(null);
  const dryRun = useMutation(trpc.attributes.delete.mutationOptions());
  const remove = useMutation(
    trpc.attributes.delete.mutationOptions({
      onSuccess: (answer, input) =>
        toast.success(m.attributes.deleted(item?.label ?? input.key, answer.impact.holders)),
      onError: (error) => toast.error(apiErrorMessage(error, m)),
      onSettled: () => {
        setItem(null);
        void queryClient.invalidateQueries(trpc.attributes.pathFilter());
      },
    }),
  );

  const ask = (next: Attribute) => {
    setItem(next);
    setImpact(null);
    dryRun.mutate(
      { key: next.key, dryRun: true },
      {
        onSuccess: (answer) => setImpact(answer.impact),
        onError: (error) => {
          setItem(null);
          toast.error(apiErrorMessage(error, m));
        },
      },
    );
  };

  const dialog = (
    <ConfirmDialog
      open={item !== null}
      onOpenChange={(open) => (open ? undefined : setItem(null))}
      title={item ? t.deleteTitle(item.label) : ''}
      description={impact ? (impact.holders === 0 ? t.deleteNone : t.deleteSome(impact.holders)) : undefined}
      confirmLabel={t.deleteConfirm}
      cancelLabel={m.common.cancel}
      tone="danger"
      pending={remove.isPending}
      confirmDisabled={impact === null}
      onConfirm={() => (item ? remove.mutate({ key: item.key, dryRun: false }) : undefined)}
    >
      {impact === null ? <ImpactSummary impact={null} /> : null}
    </ConfirmDialog>
  );
  return { ask, dialog };
}
