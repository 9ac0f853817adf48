import type { Attribute, AttributeImpact } from '@app/contracts';
import { ConfirmDialog } from '@app/ui';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useAttributesMessages } from '../../i18n/attributes-messages';
import { apiErrorMessage } from '../../lib/api-error';
import { toast } from '../../lib/toast';
import { useTRPC } from '../../lib/trpc';
import type { AttributeDraft } from './attribute-form-values';
import { conflictImpact, couldBreakValues, ImpactSummary } from './attribute-impact';

/**
 * Saving a definition: a new one is created; a change that could break stored values is first
 * asked of the server as a dry run, and when some values would fail, the user confirms clearing
 * them (`onConflict: "clear"`). A 409 ATTRIBUTE_CONFLICT (values changed since the dry run) asks
 * the same question with its own impact. Field refusals are thrown for the form to place.
 */
export function useSaveAttribute(current: Attribute | null, onSaved: (item: Attribute) => void) {
  const m = useAttributesMessages();
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const create = useMutation(trpc.attributes.create.mutationOptions());
  const update = useMutation(trpc.attributes.update.mutationOptions());
  const [asking, setAsking] = useState<{ draft: AttributeDraft; impact: AttributeImpact } | null>(null);

  const saved = (item: Attribute) => {
    void queryClient.invalidateQueries(trpc.attributes.pathFilter());
    onSaved(item);
  };

  const write = async (key: string, draft: AttributeDraft, onConflict: 'refuse' | 'clear') => {
    const { key: _fixed, ...definition } = draft;
    const answer = await update.mutateAsync({ key, ...definition, dryRun: false, onConflict });
    if ('item' in answer) saved(answer.item);
  };

  const save = async (draft: AttributeDraft) => {
    if (!current) {
      saved((await create.mutateAsync(draft)).item);
      return;
    }
    if (couldBreakValues(current, draft)) {
      const { key: _fixed, ...definition } = draft;
      const answer = await update.mutateAsync({ key: current.key, ...definition, dryRun: true });
      if ('impact' in answer && answer.impact.failing > 0) {
        setAsking({ draft, impact: answer.impact });
        return;
      }
    }
    try {
      await write(current.key, draft, 'refuse');
    } catch (error) {
      const impact = conflictImpact(error);
      if (!impact) throw error;
      setAsking({ draft, impact });
    }
  };

  const clearAndSave = async () => {
    if (!current || !asking) return;
    try {
      await write(current.key, asking.draft, 'clear');
    } catch (error) {
      toast.error(apiErrorMessage(error, m));
    } finally {
      setAsking(null);
    }
  };

  const dialog = (
    <ConfirmDialog
      open={asking !== null}
      onOpenChange={(open) => (open ? undefined : setAsking(null))}
      title={m.attributeImpact.changeTitle}
      description={m.attributeImpact.changeDescription}
      confirmLabel={m.attributeImpact.clearAndSave(asking?.impact.failing ?? 0)}
      cancelLabel={m.common.cancel}
      tone="danger"
      pending={update.isPending}
      onConfirm={() => void clearAndSave()}
    >
      <ImpactSummary impact={asking?.impact ?? null} />
    </ConfirmDialog>
  );
  return { save, dialog };
}
