import type { ApiTokenCreated, Permission, TokenCreateInput } from '@app/contracts';
import { Alert, Dialog, DialogContent } from '@app/ui';
import { useState } from 'react';
import { useTokensMessages } from '../../i18n/tokens-messages';
import { ScimConnection } from './scim-connection';
import { missingProvisioningScopes, provisioningTokenForm } from './scim-provisioning';
import { TokenFormContent } from './token-form-content';

export interface ConnectProviderDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The scopes the server offers the viewer (`tokens.options`); undefined while they load. */
  available: readonly Permission[] | undefined;
  onCreate: (input: TokenCreateInput) => Promise<ApiTokenCreated>;
  /** Whether the last step may offer the audit log's view of SCIM changes (audit.view). */
  canReadAudit: boolean;
}

/**
 * "Connect an identity provider": the token form, named and limited to the provisioning scopes,
 * then the SCIM base URL and the token (shown this once) with Okta's and Entra's steps. Closing
 * forgets the token, as the plain token dialog does.
 */
export function ConnectProviderDialog({ open, onOpenChange, ...rest }: ConnectProviderDialogProps) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      {open ? <ConnectProviderContent {...rest} /> : null}
    </Dialog>
  );
}

function ConnectProviderContent({
  available,
  onCreate,
  canReadAudit,
}: Omit<ConnectProviderDialogProps, 'open' | 'onOpenChange'>) {
  const m = useTokensMessages();
  const t = m.tokens.provisioning.form;
  const [created, setCreated] = useState<ApiTokenCreated | null>(null);
  if (created) return <ScimConnection created={created} canReadAudit={canReadAudit} />;
  if (available === undefined) {
    // The form's defaults are the scopes the viewer holds: it opens once they are known.
    return (
      <DialogContent size="lg" title={t.title} description={t.description}>
        <p role="status" className="pb-1 text-muted-foreground">
          {t.loading}
        </p>
      </DialogContent>
    );
  }
  return (
    <TokenFormContent
      available={available}
      onCreate={onCreate}
      onCreated={setCreated}
      defaults={provisioningTokenForm(available, t.defaultName)}
      heading={{ title: t.title, description: t.description }}
      notice={<MissingScopes available={available} />}
    />
  );
}

/** The provisioning scopes the viewer lacks, named: the form cannot offer them, the provider will be refused them. */
function MissingScopes({ available }: { available: readonly Permission[] }) {
  const m = useTokensMessages();
  const t = m.tokens.provisioning.form;
  const missing = missingProvisioningScopes(available);
  if (missing.length === 0) return null;
  return (
    <Alert tone="info" title={t.missingTitle} role="none">
      {t.missing}
      <ul className="mt-1 list-disc pl-5">
        {missing.map((permission) => (
          <li key={permission}>{m.permissions.names[permission]?.label ?? permission}</li>
        ))}
      </ul>
    </Alert>
  );
}
