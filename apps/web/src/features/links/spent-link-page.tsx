import { buttonClassName } from '@app/ui';
import { Link } from 'react-router';
import { TextLink } from '../../components/text-link';
import { useLinksMessages } from '../../i18n/links-messages';
import { LOGIN_PATH } from '../../lib/auth-paths';
import { FORGOT_PASSWORD_PATH } from '../../lib/link-paths';
import { PublicPageFrame } from './public-page-frame';
import type { LinkPurpose } from './use-link-password';

/**
 * What an expired, used, replaced or tampered link shows: that it cannot be used, and the one
 * thing to do next — nothing about the account it was for.
 */
export function SpentLinkPage({ purpose }: { purpose: LinkPurpose }) {
  const m = useLinksMessages();
  const t = m.spentLink;
  return (
    <PublicPageFrame
      title={t.title}
      footer={purpose === 'reset' ? <TextLink to={LOGIN_PATH}>{t.signIn}</TextLink> : null}
    >
      <div role="alert" className="flex flex-col gap-4 text-sm text-pretty">
        <p className="text-foreground">{t.description}</p>
        <p className="text-muted-foreground">{purpose === 'reset' ? t.resetNext : t.inviteNext}</p>
      </div>
      <Link
        to={purpose === 'reset' ? FORGOT_PASSWORD_PATH : LOGIN_PATH}
        className={buttonClassName({ size: 'lg', className: 'mt-5 w-full' })}
      >
        {purpose === 'reset' ? t.requestNew : t.signIn}
      </Link>
    </PublicPageFrame>
  );
}
