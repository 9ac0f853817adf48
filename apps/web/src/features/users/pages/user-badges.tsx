import { Badge } from '@app/ui';
import { useMessages } from '../../../i18n/messages';

/** Deleted, active or inactive: the text says it, the colour only helps. */
export function UserStatusBadge({ isActive, deletedAt }: { isActive: boolean; deletedAt: string | null }) {
  const m = useMessages();
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
