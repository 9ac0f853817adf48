import { buttonClassName } from '@app/ui';
import { FileUp, UserPlus } from 'lucide-react';
import { Link } from 'react-router';
import { useMessages } from '../../../i18n/messages';

/** The users page's ways to add accounts, for a caller who may create them: a file, or one by one. */
export function UsersCreateLinks() {
  const t = useMessages().usersList;
  return (
    <>
      <Link to="/users/import" className={buttonClassName({ variant: 'secondary', size: 'md' })}>
        <FileUp aria-hidden="true" />
        {t.importUsers}
      </Link>
      <Link to="/users/new" className={buttonClassName({ size: 'md' })}>
        <UserPlus aria-hidden="true" />
        {t.newUser}
      </Link>
    </>
  );
}
