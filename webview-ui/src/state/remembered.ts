import { useCallback, useSyncExternalStore } from "react";

/**
 * Small view state (which card is expanded, a half-typed reject reason) kept outside the
 * components, because the virtualized transcript unmounts cards that scroll out of view.
 */
const values = new Map<string, unknown>();
const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useRemembered<T>(key: string, initial: T): [T, (value: T) => void] {
  const value = useSyncExternalStore(subscribe, () => (values.has(key) ? (values.get(key) as T) : initial));
  const set = useCallback(
    (next: T) => {
      values.set(key, next);
      for (const listener of listeners) listener();
    },
    [key],
  );
  return [value, set];
}
