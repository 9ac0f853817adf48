import type { Permission } from '@app/contracts';
import { buttonClassName, EmptyState } from '@app/ui';
import { ShieldOff } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useMessages } from '../../i18n/messages';
import { useCan } from './use-session';

/** A page's content, or a plain explanation when the account lacks the permission it needs. */
export function RequirePermission({ permission, children }: { permission: Permission; children: ReactNode }) {
  const can = useCan();
  if (can[permission]) return children;
  return <ForbiddenState permission={permission} />;
}

export function ForbiddenState({ permission }: { permission: string }) {
  const m = useMessages();
  const label = m.permissions.names[permission]?.label ?? permission;
  return (
    <div className="py-12">
      <title>{m.app.documentTitle(m.common.forbiddenTitle)}</title>
      <EmptyState
        icon={<ShieldOff aria-hidden="true" />}
        title={m.common.forbiddenTitle}
        description={m.common.forbiddenDescription(label)}
        action={
          <Link to="/" className={buttonClassName({ variant: 'secondary' })}>
            {m.common.goHome}
          </Link>
        }
      />
    </div>
  );
}
