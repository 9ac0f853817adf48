import { Button, Card, PageHeader } from '@app/ui';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Plus } from 'lucide-react';
import { useState } from 'react';
import { useTokensMessages } from '../../i18n/tokens-messages';
import { useTRPC } from '../../lib/trpc';
import { AccountNav } from '../auth/account-nav';
import { CreateTokenDialog } from './create-token-dialog';
import { TokenList } from './token-list';
import { TokensEmptyState } from './tokens-empty-state';
import { useRevokeTokenDialog } from './use-revoke-token';

/** `/account/tokens`: the signed-in user's own API tokens — list, create (secret shown once), revoke. */
export function MyTokensPage() {
  const m = useTokensMessages();
  const t = m.tokens;
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [creating, setCreating] = useState(false);
  const tokens = useQuery(trpc.tokens.list.queryOptions());
  const refresh = () => queryClient.invalidateQueries(trpc.tokens.list.pathFilter());
  const create = useMutation(trpc.tokens.create.mutationOptions({ onSettled: refresh }));
  const revoke = useMutation(trpc.tokens.revoke.mutationOptions({ onSettled: refresh }));
  const { ask, dialog } = useRevokeTokenDialog((token) => revoke.mutateAsync({ tokenId: token.id }));
  // The scopes the server offers: what the viewer holds in this very session, nothing more.
  const options = useQuery({ ...trpc.tokens.options.queryOptions(), enabled: creating });
  const newButton = (
    <Button onClick={() => setCreating(true)}>
      <Plus aria-hidden="true" />
      {t.create}
    </Button>
  );

  return (
    <>
      <title>{m.app.documentTitle(t.title)}</title>
      <PageHeader title={t.title} description={t.subtitle} actions={tokens.data?.items.length ? newButton : null} />
      <AccountNav className="mt-6" />
      <Card className="mt-6 max-w-4xl overflow-hidden">
        <TokenList query={tokens} owner="self" empty={<TokensEmptyState action={newButton} />} onRevoke={ask} />
      </Card>
      <CreateTokenDialog
        open={creating}
        onOpenChange={setCreating}
        available={options.data?.scopes}
        onCreate={(input) => create.mutateAsync(input)}
      />
      {dialog}
    </>
  );
}
