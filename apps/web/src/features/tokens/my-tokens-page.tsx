import { Button, Card, PageHeader } from '@app/ui';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Plus, Workflow } from 'lucide-react';
import { useState } from 'react';
import { useTokensMessages } from '../../i18n/tokens-messages';
import { useTRPC } from '../../lib/trpc';
import { AccountNav } from '../auth/account-nav';
import { useCan } from '../auth/use-session';
import { ConnectProviderDialog } from './connect-provider-dialog';
import { CreateTokenDialog } from './create-token-dialog';
import { TokenList } from './token-list';
import { TokensEmptyState } from './tokens-empty-state';
import { PROVISIONING_SCOPES } from './scim-provisioning';
import { useRevokeTokenDialog } from './use-revoke-token';

/** `/account/tokens`: the signed-in user's own API tokens — list, create (secret shown once), revoke. */
export function MyTokensPage() {
  const m = useTokensMessages();
  const t = m.tokens;
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const can = useCan();
  const [creating, setCreating] = useState(false);
  const [connecting, setConnecting] = useState(false);
  const tokens = useQuery(trpc.tokens.list.queryOptions());
  const refresh = () => queryClient.invalidateQueries(trpc.tokens.list.pathFilter());
  const create = useMutation(trpc.tokens.create.mutationOptions({ onSettled: refresh }));
  const revoke = useMutation(trpc.tokens.revoke.mutationOptions({ onSettled: refresh }));
  const { ask, dialog } = useRevokeTokenDialog((token) => revoke.mutateAsync({ tokenId: token.id }));
  // The scopes the server offers: what the viewer holds in this very session, nothing more.
  const options = useQuery({ ...trpc.tokens.options.queryOptions(), enabled: creating || connecting });
  // Offered to whoever could provision anything at all: a token holding none of it is no use to an IdP.
  const mayProvision = PROVISIONING_SCOPES.some((permission) => can[permission] === true);
  const newButton = (
    <Button onClick={() => setCreating(true)}>
      <Plus aria-hidden="true" />
      {t.create}
    </Button>
  );
  const connectButton = mayProvision ? (
    <Button variant="secondary" onClick={() => setConnecting(true)}>
      <Workflow aria-hidden="true" />
      {t.provisioning.open}
    </Button>
  ) : null;

  return (
    <>
      <title>{m.app.documentTitle(t.title)}</title>
      <PageHeader
        title={t.title}
        description={t.subtitle}
        actions={
          connectButton || tokens.data?.items.length ? (
            <>
              {connectButton}
              {tokens.data?.items.length ? newButton : null}
            </>
          ) : null
        }
      />
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
      <ConnectProviderDialog
        open={connecting}
        onOpenChange={setConnecting}
        available={options.data?.scopes}
        onCreate={(input) => create.mutateAsync(input)}
        canReadAudit={can['audit.view'] === true}
      />
      {dialog}
    </>
  );
}
