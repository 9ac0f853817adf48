import { Button, FormError, inputClassName, cn } from '@app/ui';
import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useAccountMessages } from '../../i18n/account-messages';
import { apiErrorMessage } from '../../lib/api-error';
import type { TwoFactorSetup } from '@app/contracts';
import { accountApi } from '../../lib/account-api';
import { CodeField, digitsOf } from '../../components/code-field';
import { QrCode } from './qr-code';
import { RecoveryCodes } from './recovery-codes';

/**
 * Enrolment: start (the server makes a secret) → scan the QR code or type the key → confirm
 * with a code (the factor is on from then) → the recovery codes, once → `onDone`.
 */
export function TwoFactorEnrol({ onEnabled, onDone }: { onEnabled: () => void; onDone: () => void }) {
  const m = useAccountMessages();
  const [enrolment, setEnrolment] = useState<TwoFactorSetup | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const form = useForm<{ code: string }>({ defaultValues: { code: '' } });
  const keyId = useId();
  const start = useMutation({ mutationFn: accountApi.startEnrolment, onSuccess: setEnrolment });
  const confirm = useMutation({
    mutationFn: (code: string) => accountApi.confirmEnrolment(code),
    onSuccess: (answer) => {
      setEnrolment(null);
      setCodes(answer.recovery_codes);
      onEnabled();
    },
    onError: () => {
      form.resetField('code');
      form.setFocus('code');
    },
  });

  if (codes) return <RecoveryCodes codes={codes} onDone={onDone} />;
  if (!enrolment) {
    return (
      <div className="flex flex-col items-start gap-3">
        <FormError message={start.isError ? apiErrorMessage(start.error, m) : null} />
        <Button onClick={() => start.mutate()} loading={start.isPending}>
          {start.isPending ? m.twoFactor.starting : m.twoFactor.start}
        </Button>
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-6">
      <section className="flex flex-col gap-3">
        <h2 className="text-base font-semibold text-foreground">{m.twoFactor.scanTitle}</h2>
        <p className="text-sm text-muted-foreground">{m.twoFactor.scanDescription}</p>
        <QrCode value={enrolment.otpauth_url} label={m.twoFactor.qrLabel} />
        <div className="flex max-w-md flex-col gap-1.5">
          <label htmlFor={keyId} className="text-sm font-medium text-foreground">
            {m.twoFactor.manualLabel}
          </label>
          <input
            id={keyId}
            readOnly
            value={enrolment.secret}
            spellCheck={false}
            autoComplete="off"
            onFocus={(event) => event.currentTarget.select()}
            className={cn(inputClassName, 'font-mono text-sm tracking-wider')}
          />
        </div>
      </section>
      <form
        noValidate
        className="flex flex-col gap-3"
        onSubmit={form.handleSubmit((values) => confirm.mutate(digitsOf(values.code)))}
      >
        <h2 className="text-base font-semibold text-foreground">{m.twoFactor.confirmTitle}</h2>
        <FormError message={confirm.isError ? apiErrorMessage(confirm.error, m) : null} />
        <CodeField
          label={m.twoFactor.code}
          error={form.formState.errors.code?.message}
          {...form.register('code', {
            validate: (value) => /^\d{6}$/.test(digitsOf(value)) || m.twoFactor.codeRequired,
          })}
        />
        <div className="flex gap-2">
          <Button type="submit" loading={confirm.isPending}>
            {m.twoFactor.confirm}
          </Button>
          <Button variant="secondary" onClick={() => setEnrolment(null)}>
            {m.twoFactor.cancel}
          </Button>
        </div>
      </form>
    </div>
  );
}
