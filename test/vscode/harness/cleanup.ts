// Everything the harness starts registers how to stop it here. `runCleanups()` is called from
// `finally` blocks; SIGINT/SIGTERM run it too, and a synchronous last resort on process exit
// kills any process group still registered so nothing outlives the harness.

type Cleanup = { name: string; fn: () => Promise<void> | void; lastResortPid?: number; running?: Promise<void> };

const cleanups: Cleanup[] = [];
/** Cleanups started elsewhere (a `finally`) that a signal's runCleanups() must still wait for. */
const inFlight = new Set<Promise<void>>();
let signalsInstalled = false;
let stopping = false;

/** True once SIGINT/SIGTERM/SIGHUP arrived and everything is being stopped. */
export function isStopping(): boolean {
  return stopping;
}

/** Registers a cleanup; returns a function that runs it now and unregisters it. */
export function onCleanup(name: string, fn: () => Promise<void> | void, lastResortPid?: number): () => Promise<void> {
  installSignalHandlers();
  const entry: Cleanup = { name, fn, lastResortPid };
  cleanups.push(entry);
  return () => {
    const i = cleanups.indexOf(entry);
    if (i >= 0) cleanups.splice(i, 1);
    return runOne(entry);
  };
}

/** Runs every registered cleanup, newest first. Never throws. */
export async function runCleanups(): Promise<void> {
  while (cleanups.length > 0) {
    const entry = cleanups.pop()!;
    await runOne(entry);
  }
  await Promise.all([...inFlight]);
}

/** Runs a cleanup once; later calls share the same promise. */
function runOne(entry: Cleanup): Promise<void> {
  if (entry.running) return entry.running;
  const running = (async () => {
    try {
      await entry.fn();
    } catch (err) {
      console.error(`[harness] cleanup "${entry.name}" failed: ${String(err)}`);
    }
  })();
  inFlight.add(running);
  entry.running = running.finally(() => inFlight.delete(running));
  return entry.running;
}

function installSignalHandlers(): void {
  if (signalsInstalled) return;
  signalsInstalled = true;
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
    process.once(signal, () => {
      stopping = true;
      console.error(`\n[harness] ${signal}: stopping everything started`);
      const hardStop = setTimeout(() => process.exit(130), 15_000);
      hardStop.unref();
      void runCleanups().finally(() => process.exit(130));
    });
  }
  process.once("exit", () => {
    // Synchronous last resort: the async cleanups could not run (e.g. process.exit()).
    for (const entry of cleanups) {
      if (entry.lastResortPid === undefined) continue;
      try {
        process.kill(-entry.lastResortPid, "SIGKILL");
      } catch {
        // already gone
      }
    }
  });
}

/** Rejects after `ms` with a clear message; the timer never keeps the process alive. */
export async function withTimeout<T>(what: string, ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${Math.round(ms / 1000)} s`)), ms);
    timer.unref();
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
