import * as vscode from "vscode";
import { CommandSandbox, SandboxedExecutor, sandboxUnavailable, type Executor } from "../../core";
import type { FathomSettings, SandboxState } from "../settings";
import { DomainConsent } from "./domainConsent";

type SandboxSettings = FathomSettings["sandbox"];

/**
 * The OS sandbox in VS Code: one sandbox for the window, rebuilt when its settings change; the
 * terminal executor wrapped so every command (terminal, child-process fallback, background)
 * runs inside it; a connection to a domain nobody allowed is asked about once per task (this
 * task, always, or no), and "always" goes to the user settings only.
 */
export class HostSandbox implements vscode.Disposable {
  private current: { key: string; sandbox: CommandSandbox; executor: SandboxedExecutor } | undefined;
  private unavailableSaid = false;
  /** Why the sandbox cannot run here (undefined: it can); found out on first use, not at activation. */
  private problemFound: { problem: string | undefined } | undefined;
  private readonly consent: DomainConsent;

  constructor(
    private readonly inner: Executor,
    private readonly o: { privateFolders: () => string[]; log: vscode.LogOutputChannel },
  ) {
    this.consent = new DomainConsent({
      ask: (host) => this.askDomain(host),
      remember: (host) => this.rememberDomain(host),
      log: (line) => this.o.log.info(line),
    });
  }

  private get problem(): string | undefined {
    this.problemFound ??= { problem: sandboxUnavailable() };
    return this.problemFound.problem;
  }

  state(settings: SandboxSettings): SandboxState {
    if (!settings.enabled) return "off";
    if (this.problem) {
      if (!this.unavailableSaid) {
        this.unavailableSaid = true;
        this.o.log.warn(this.problem);
        void vscode.window.showWarningMessage(`Fathom: ${this.problem} Until then Fathom asks before every command.`);
      }
      return "unavailable";
    }
    return "on";
  }

  /** The state when it is already known, without checking the sandbox's tools (undefined: not checked yet). */
  known(settings: SandboxSettings): SandboxState | undefined {
    if (!settings.enabled) return "off";
    return this.problemFound ? (this.problemFound.problem ? "unavailable" : "on") : undefined;
  }

  /** Checks the sandbox's tools and makes it for these settings, ahead of a task that will need it. */
  warm(settings: SandboxSettings): void {
    if (settings.enabled && !this.problem) this.ensure(settings);
  }

  /** The sandbox itself (for MCP stdio servers), or undefined when it is off or cannot run. */
  sandboxFor(settings: SandboxSettings): CommandSandbox | undefined {
    return this.state(settings) === "on" ? this.ensure(settings).sandbox : undefined;
  }

  /** The executor for a task: sandboxed when the sandbox is on, the plain one otherwise. */
  executorFor(settings: SandboxSettings, taskId?: string, inner: Executor = this.inner): Executor {
    if (this.state(settings) !== "on") return inner;
    this.consent.startTask(taskId);
    const current = this.ensure(settings);
    if (inner === this.inner) return current.executor;
    // A task's own terminal: wrapped in the same sandbox (rewrapped when the sandbox is remade).
    let wrapped = this.wrapped.get(inner);
    if (wrapped?.sandbox !== current.sandbox) {
      wrapped?.executor.dispose();
      wrapped = {
        sandbox: current.sandbox,
        executor: new SandboxedExecutor(inner, current.sandbox, { viaScript: true }),
      };
      this.wrapped.set(inner, wrapped);
    }
    return wrapped.executor;
  }

  private readonly wrapped = new WeakMap<Executor, { sandbox: CommandSandbox; executor: SandboxedExecutor }>();

  /** The window's sandbox for these settings, made (or remade) when they change. */
  private ensure(settings: SandboxSettings): { sandbox: CommandSandbox; executor: SandboxedExecutor } {
    const key = JSON.stringify(settings);
    if (this.current?.key !== key) {
      const old = this.current;
      this.current = undefined;
      if (old) {
        old.executor.dispose();
        void old.sandbox.dispose();
      }
      const sandbox = new CommandSandbox({
        allowedDomains: settings.allowedDomains,
        denyRead: settings.denyRead.map((p) => p.replace(/^~(?=\/|$)/, process.env.HOME ?? "~")),
        privateFolders: this.o.privateFolders(),
        askDomain: (host) => this.consent.allows(host),
      });
      this.current = { key, sandbox, executor: new SandboxedExecutor(this.inner, sandbox, { viaScript: true }) };
      this.o.log.info(`Commands run in the OS sandbox (network: ${settings.allowedDomains.join(", ") || "none"})`);
    }
    return this.current;
  }

  private async askDomain(host: string): Promise<"task" | "always" | "deny" | undefined> {
    const once = "Allow for This Task";
    const always = "Always Allow";
    const answer = await vscode.window.showWarningMessage(
      `A sandboxed command wants to connect to ${host}. Allow it?`,
      {
        detail: "Commands run without network unless you allow a domain. Package registries are not allowed silently.",
      },
      once,
      always,
      "Deny",
    );
    return answer === once ? "task" : answer === always ? "always" : answer === "Deny" ? "deny" : undefined;
  }

  /** "Always Allow": added to the person's user settings (never the workspace's). */
  private async rememberDomain(host: string): Promise<void> {
    const config = vscode.workspace.getConfiguration("fathom");
    const list = config.inspect<string[]>("sandbox.allowedDomains")?.globalValue ?? [];
    await config.update("sandbox.allowedDomains", [...new Set([...list, host])], vscode.ConfigurationTarget.Global);
  }

  dispose(): void {
    this.current?.executor.dispose();
    void this.current?.sandbox.dispose();
    this.current = undefined;
  }
}
