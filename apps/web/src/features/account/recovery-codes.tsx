import { Alert, Button } from '@app/ui';
import { Check, Copy, Download } from 'lucide-react';
import { useState } from 'react';
import { useAccountMessages } from '../../i18n/account-messages';

/**
 * The ten recovery codes, shown this once (only their hashes are kept): copy, download as a
 * text file, then done. The parent forgets them on `onDone`.
 */
export function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const m = useAccountMessages();
  const [copy, setCopy] = useState<'idle' | 'copied' | 'failed'>('idle');
  const text = `${codes.join('\n')}\n`;

  const copyCodes = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopy('copied');
    } catch {
      setCopy('failed');
    }
  };
  const download = () => {
    const link = document.createElement('a');
    link.href = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    link.download = m.twoFactor.downloadName;
    link.click();
    URL.revokeObjectURL(link.href);
  };

  return (
    <section aria-labelledby="recovery-codes-title" className="flex flex-col gap-4">
      <h2 id="recovery-codes-title" className="text-base font-semibold text-foreground">
        {m.twoFactor.recoveryTitle}
      </h2>
      <Alert tone="warning" role="none">
        {m.twoFactor.recoveryDescription}
      </Alert>
      <ul
        aria-label={m.twoFactor.recoveryListLabel}
        className="grid grid-cols-2 gap-x-6 gap-y-1.5 rounded-lg border border-border bg-surface-muted p-4 font-mono text-sm select-all"
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <Button variant="secondary" onClick={() => void copyCodes()}>
          {copy === 'copied' ? <Check aria-hidden="true" /> : <Copy aria-hidden="true" />}
          {copy === 'copied' ? m.twoFactor.copied : m.twoFactor.copy}
        </Button>
        <Button variant="secondary" onClick={download}>
          <Download aria-hidden="true" />
          {m.twoFactor.download}
        </Button>
        <Button onClick={onDone}>{m.twoFactor.done}</Button>
      </div>
      <p role="status" className={copy === 'failed' ? 'text-xs text-danger' : 'sr-only'}>
        {copy === 'copied' ? m.twoFactor.copied : copy === 'failed' ? m.twoFactor.copyFailed : ''}
      </p>
    </section>
  );
}
