import { Badge } from '@app/ui';
import { useUserPagesMessages } from '../../../i18n/user-pages-messages';

/** Deleted, active or inactive: the text says it, the colour only helps. */
export function UserStatusBadge({ isActive, deletedAt }: { isActive: boolean; deletedAt: string | null }) {
  const m = useUserPagesMessages();
  if (deletedAt) {
    return (
      <Badge tone="danger" dot>
        {m.userPage.deleted}
      </Badge>
    );
  }
  return isActive ? (
    <Badge tone="success" dot>
      {m.userPage.active}
    </Badge>
  ) : (
    <Badge tone="neutral" dot>
      {m.userPage.inactive}
    </Badge>
  );
}
