import { useLocation, useNavigate } from 'react-router';

/** Cancel: back where the user came from, or to `fallback` when the page was opened directly. */
export function useLeaveBack(fallback: string): () => void {
  const navigate = useNavigate();
  const location = useLocation();
  return () => {
    if (location.key === 'default') void navigate(fallback);
    else void navigate(-1);
  };
}
