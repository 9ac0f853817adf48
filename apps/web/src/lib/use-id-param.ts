import { useParams } from 'react-router';

/** A positive whole-number route parameter, or null (`/users/abc` is then shown as not found). */
export function useIdParam(name = 'id'): number | null {
  const raw = useParams()[name];
  if (!raw || !/^[1-9]\d{0,15}$/.test(raw)) return null;
  const id = Number(raw);
  return Number.isSafeInteger(id) ? id : null;
}
