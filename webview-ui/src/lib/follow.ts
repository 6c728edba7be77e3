/**
 * The person's own actions (send, approve, reject) mean "show me what happens next": they ask
 * the transcript to follow the latest output again, even if a layout change (a card shrinking
 * as its approval bar goes) had scrolled it away from the end.
 */
const listeners = new Set<() => void>();

export function requestFollow(): void {
  for (const listener of listeners) listener();
}

export function onFollowRequest(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
