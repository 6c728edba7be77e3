/**
 * Calls `stop` once the signal aborts ("cancelled") or `timeoutMs` passes ("timedOut"), whichever
 * comes first while watched; the returned function stops watching (call it when the process ends).
 */
export function stopWhen(
  signal: AbortSignal | undefined,
  timeoutMs: number,
  stop: (why: "cancelled" | "timedOut") => void,
): () => void {
  const onAbort = () => stop("cancelled");
  const timer = setTimeout(() => stop("timedOut"), timeoutMs);
  signal?.addEventListener("abort", onAbort, { once: true });
  return () => {
    clearTimeout(timer);
    signal?.removeEventListener("abort", onAbort);
  };
}
