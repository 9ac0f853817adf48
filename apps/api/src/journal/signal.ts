/**
 * "New deliveries are due": said after a transaction that wrote outbox rows commits, so this
 * process's dispatcher starts at once instead of at its next poll. Other instances find the
 * rows at their next poll; nothing is lost if nobody listens.
 */
const listeners = new Set<() => void>();

export function onNewDeliveries(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function announceNewDeliveries(): void {
  for (const listener of listeners) listener();
}
