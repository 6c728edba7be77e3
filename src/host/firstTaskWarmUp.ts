import * as vscode from "vscode";
import { createAgent, StateBackend, type ChatModel } from "../core";
import { preloadModelLibraries } from "../core/vendor/libraries";
import type { Logger } from "./log";
import { endpointOrigin, readSettings } from "./settings";
import type { HostSandbox } from "./terminal/hostSandbox";

/**
 * What a window's first task needs before its first request, done while the person writes the
 * message rather than after Enter, and never at activation: the model's client library, a
 * connection to the model's server (a HEAD of its origin without credentials, as a browser's
 * preconnect: the first request then finds the connection, and its TLS, open), the API key out
 * of secret storage, the agent's own
 * first-use costs (a throwaway agent is made and dropped), the OS sandbox's check of its tools (it
 * runs `which` and friends) and its set-up, the diff editor's worker. Each step yields to the
 * event loop, so the window's messages are not held up.
 */
export class FirstTaskWarmUp {
  private doneFor: string | undefined;

  constructor(
    private readonly o: { sandbox: HostSandbox; warmDiffs: () => void; readSetup: () => Promise<unknown>; log: Logger },
  ) {}

  /** The person started writing a message (the webview says so once in a while). */
  composing(): void {
    const settings = readSettings(vscode.workspace.getConfiguration("fathom"));
    // A connection idles out: opened again each time (the webview says so at most every 20 s).
    if (settings.provider !== "vscode") preconnect(endpointOrigin(settings.provider, settings.baseUrl));
    const key = JSON.stringify([settings.provider, settings.sandbox]);
    if (this.doneFor === key) return;
    this.doneFor = key;
    const started = Date.now();
    const steps = [
      // The settings and the key (secret storage is a round trip through the window; kept after).
      () => void this.o.readSetup().catch(() => undefined),
      () => preloadModelLibraries(settings.provider),
      () => createAgent({ model: IDLE_MODEL, workspaceRoot: "/", backend: new StateBackend(), rules: false }),
      () => this.o.sandbox.warm(settings.sandbox),
      () => this.o.warmDiffs(),
    ];
    const next = (i: number): void => {
      if (i === steps.length) return this.o.log.debug(`first task warmed up in ${Date.now() - started} ms`);
      try {
        steps[i]!();
      } catch (error) {
        this.o.log.warn(`Warming up for the first task: ${String(error)}`);
      }
      setTimeout(() => next(i + 1), 0);
    };
    setTimeout(() => next(0), 0);
  }
}

/** A model for the throwaway agent: it is made, never run. */
const IDLE_MODEL: ChatModel = {
  provider: "scripted",
  model: "warm-up",
  contextWindow: 8192,
  // eslint-disable-next-line require-yield -- never called: the agent is only made
  async *stream() {
    throw new Error("the warm-up agent does not run");
  },
};

/** Opens a connection to the model's server through the same `fetch` the SDKs use; its answer does not matter. */
function preconnect(origin: string): void {
  void fetch(origin, {
    method: "HEAD",
    redirect: "manual",
    credentials: "omit",
    signal: AbortSignal.timeout(5000),
  }).then(
    (response) => response.body?.cancel(),
    () => undefined,
  );
}
