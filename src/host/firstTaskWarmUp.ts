import * as vscode from "vscode";
import { preloadModelLibraries } from "../core/vendor/libraries";
import type { Logger } from "./log";
import { readSettings } from "./settings";
import type { HostSandbox } from "./terminal/hostSandbox";

/**
 * What a window's first task needs before its first request, done while the person writes the
 * message rather than after Enter, and never at activation: the model's client library, the OS
 * sandbox's check of its tools (it runs `which` and friends) and its set-up, the diff editor's
 * worker. Each step yields to the event loop, so the window's messages are not held up.
 */
export class FirstTaskWarmUp {
  private doneFor: string | undefined;

  constructor(private readonly o: { sandbox: HostSandbox; warmDiffs: () => void; log: Logger }) {}

  /** The person started writing a message (the webview says so once in a while). */
  composing(): void {
    const settings = readSettings(vscode.workspace.getConfiguration("fathom"));
    const key = JSON.stringify([settings.provider, settings.sandbox]);
    if (this.doneFor === key) return;
    this.doneFor = key;
    const started = Date.now();
    const steps = [() => preloadModelLibraries(settings.provider), () => this.o.sandbox.warm(settings.sandbox), () => this.o.warmDiffs()];
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
