import { EmptyState } from '@app/ui';
import { KeyRound } from 'lucide-react';
import type { ReactNode } from 'react';
import { useTokensMessages } from '../../i18n/tokens-messages';

/** No tokens yet: what they are for, and how a script sends one (`Authorization: Bearer`). */
export function TokensEmptyState({ action }: { action?: ReactNode }) {
  const m = useTokensMessages();
  const t = m.tokens.empty;
  return (
    <EmptyState
      icon={<KeyRound aria-hidden="true" />}
      title={t.title}
      description={
        <>
          {t.description}
          <span className="mt-3 block text-left text-xs font-medium text-foreground">{t.exampleLabel}</span>
          <code className="mt-1 block rounded-md border border-border bg-surface-muted px-3 py-2 text-left font-mono text-xs break-all text-foreground">
            {t.example(window.location.origin)}
          </code>
        </>
      }
      action={action}
    />
  );
}
