import type { ApiTokenCreated } from '@app/contracts';
import { Button, buttonClassName, DialogClose, DialogContent } from '@app/ui';
import { ExternalLink, ScrollText } from 'lucide-react';
import { Link } from 'react-router';
import { useTokensMessages } from '../../i18n/tokens-messages';
import { OneTimeSecret } from '../../lib/one-time-secret';
import { SCIM_CHANGES_HREF } from '../audit/audit-list-state';
import { useCan } from '../auth/use-session';
import { CopyField } from './copy-field';
import { scimBaseUrl } from './scim-provisioning';

// The attributes page's "SCIM provisioning" card (its anchor is the attributes feature's own).
const SCIM_MAPPING_HREF = '/settings/attributes#scim-provisioning';

function ProviderSteps({ title, steps }: { title: string; steps: readonly string[] }) {
  return (
    <section className="flex flex-col gap-1.5">
      <h4 className="text-sm font-semibold text-foreground">{title}</h4>
      <ol className="flex list-decimal flex-col gap-1 pl-5 text-muted-foreground marker:text-muted-foreground">
        {steps.map((step) => (
          <li key={step}>{step}</li>
        ))}
      </ol>
    </section>
  );
}

/**
 * The provisioning dialog's last step: the base URL and the token (this once), then Okta's and
 * Entra's steps, the way to map the enterprise fields (attributes.manage), and the way to the audit
 * log's view of what the provider does.
 */
export function ScimConnection({ created, canReadAudit }: { created: ApiTokenCreated; canReadAudit: boolean }) {
  const m = useTokensMessages();
  const t = m.tokens.provisioning.connect;
  const canMap = useCan()['attributes.manage'] === true;
  return (
    <DialogContent
      size="lg"
      title={t.title}
      description={t.description(created.item.name)}
      // A stray click beside the dialog must not throw the only copy of the token away.
      onInteractOutside={(event) => event.preventDefault()}
      footer={
        <>
          {canReadAudit ? (
            // A new tab: leaving this page would drop the token before it is copied.
            <Link
              to={SCIM_CHANGES_HREF}
              target="_blank"
              rel="noreferrer"
              className={buttonClassName({ variant: 'secondary' })}
            >
              <ScrollText aria-hidden="true" />
              <span>
                {t.audit} <span className="sr-only">{t.newTab}</span>
              </span>
            </Link>
          ) : null}
          <DialogClose asChild>
            <Button>{t.done}</Button>
          </DialogClose>
        </>
      }
    >
      <div className="flex flex-col gap-5 pb-1">
        <CopyField label={t.urlLabel} value={scimBaseUrl(window.location.origin)} strings={t.url} />
        <OneTimeSecret value={created.token} strings={t.token} />
        <div className="flex flex-col gap-4 border-t border-border pt-4">
          <h3 className="font-medium text-foreground">{t.stepsTitle}</h3>
          <ProviderSteps title={t.okta.title} steps={t.okta.steps} />
          <ProviderSteps title={t.entra.title} steps={t.entra.steps} />
          {canMap ? (
            <p>
              {/* A new tab, as the audit link: leaving would drop the token before it is copied. */}
              <Link
                to={SCIM_MAPPING_HREF}
                target="_blank"
                rel="noreferrer"
                className="inline-flex items-center gap-1.5 rounded-sm font-medium text-foreground underline underline-offset-4"
              >
                {t.mapFields} <span className="sr-only">{t.newTab}</span>
                <ExternalLink aria-hidden="true" className="size-3.5" />
              </Link>
            </p>
          ) : null}
          {canReadAudit ? <p className="text-xs text-muted-foreground">{t.auditHint}</p> : null}
        </div>
      </div>
    </DialogContent>
  );
}
