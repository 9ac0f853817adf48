import { Alert, Button, Card, CardDescription, CardHeader, CardTitle, cn } from '@app/ui';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Plus } from 'lucide-react';
import { useState } from 'react';
import { useTokensMessages } from '../../i18n/tokens-messages';
import { apiErrorCode, apiErrorMessage } from '../../lib/api-error';
import { useTRPC } from '../../lib/trpc';
import { CreateTokenDialog } from './create-token-dialog';
import { TokenList } from './token-list';
import { useRevokeTokenDialog } from './use-revoke-token';

export interface UserTokensSectionProps {
  user: { id: number; name: string };
  /** The reason the page already gives for the same refusal: not repeated here word for word. */
  explained?: string | null;
  className?: string;
}

/**
 * Another user's API tokens on their page (tokens.manage): list, create one for them (secret
 * shown once) and revoke. A user who outranks the viewer: the server's reason, no buttons.
 */
export function UserTokensSection({ user, explained = null, className }: UserTokensSectionProps) {
  const m = useTokensMessages();
  const t = m.tokens;
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [creating, setCreating] = useState(false);
  const tokens = useQuery({ ...trpc.tokens.listFor.queryOptions({ id: user.id }), retry: false });
  const refresh = () => queryClient.invalidateQueries(trpc.tokens.listFor.pathFilter());
  const create = useMutation(trpc.tokens.createFor.mutationOptions({ onSettled: refresh }));
  const revoke = useMutation(trpc.tokens.revokeFor.mutationOptions({ onSettled: refresh }));
  const { ask, dialog } = useRevokeTokenDialog((token) => revoke.mutateAsync({ id: user.id, tokenId: token.id }));
  const refusal = apiErrorCode(tokens.error) === 'OUTRANKED' ? apiErrorMessage(tokens.error, m) : null;
  // The scopes the server offers for this owner and this caller: what both hold.
  const options = useQuery({
    ...trpc.tokens.optionsFor.queryOptions({ id: user.id }),
    enabled: creating,
    retry: false,
  });

  return (
    <Card aria-labelledby="user-tokens-title" className={cn('overflow-hidden', className)}>
      <CardHeader className="flex-col pb-3 sm:flex-row">
        <div className="min-w-0">
          <CardTitle id="user-tokens-title">{t.user.title}</CardTitle>
          <CardDescription>{t.user.description}</CardDescription>
        </div>
        {refusal ? null : (
          <Button variant="secondary" size="sm" className="shrink-0" onClick={() => setCreating(true)}>
            <Plus aria-hidden="true" />
            {t.user.create}
          </Button>
        )}
      </CardHeader>
      <div className="border-t border-border">
        {refusal ? (
          <div className="px-5 py-4">
            <Alert title={t.user.outrankedTitle} role="status">
              {refusal === explained ? null : refusal}
            </Alert>
          </div>
        ) : (
          <TokenList
            query={tokens}
            owner="other"
            empty={<p className="px-5 py-6 text-center text-sm text-muted-foreground">{t.user.empty}</p>}
            onRevoke={ask}
          />
        )}
      </div>
      <CreateTokenDialog
        open={creating}
        onOpenChange={setCreating}
        available={options.data?.scopes}
        ownerName={user.name}
        onCreate={(input) => create.mutateAsync({ id: user.id, ...input })}
      />
      {dialog}
    </Card>
  );
}
