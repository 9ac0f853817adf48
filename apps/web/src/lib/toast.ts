import type { ExternalToast } from 'sonner';
import { useSyncExternalStore } from 'react';

type Message = Parameters<typeof import('sonner').toast.success>[0];

// sonner (about 9 KB gzipped) is not needed to draw a page, only once something has been done on
// it: it loads with the first toast, and the Toaster mounts then (`useToasterWanted`). The Toaster
// shows the toasts created before it subscribed, so that first one is not lost.
const sonner = () => import('sonner');

let wanted = false;
const listeners = new Set<() => void>();

const show =
  (kind: 'message' | 'success' | 'error' | 'info') =>
  (message: Message, data?: ExternalToast): void => {
    if (!wanted) {
      wanted = true;
      for (const listener of listeners) listener();
    }
    void sonner().then(({ toast }) => (kind === 'message' ? toast(message, data) : toast[kind](message, data)));
  };

/** `toast('…')`, `toast.success('…')`, `.error`, `.info`, as sonner's, without the library in the first chunk. */
export const toast = Object.assign(show('message'), {
  success: show('success'),
  error: show('error'),
  info: show('info'),
});

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** Whether a toast has been asked for yet: until then the Toaster (and sonner) need not load. */
export function useToasterWanted(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => wanted,
    () => false,
  );
}
