import { Navigate } from 'react-router';
import { homePathFor } from '../../lib/auth-paths';
import { useCan } from './use-session';

/** `/`: the users list for those who may see it, else the page saying what the account may do. */
export function HomeRedirect() {
  return <Navigate to={homePathFor(useCan())} replace />;
}
