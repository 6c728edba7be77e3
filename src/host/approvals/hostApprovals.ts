import * as vscode from "vscode";
import type { ApprovalLevel } from "../../core";
import type { ApprovalsView } from "../../protocol/approvals";
import type { Logger } from "../log";
import { readSettings, type SandboxState } from "../settings";
import type { HostSandbox } from "../terminal/hostSandbox";
import { approvalsView } from "./approvalsView";

/**
 * The window's permission level (`fathom.approvals`): read afresh at every tool call, so a pick in
 * the header (or an edit of the settings) applies from the next call, even mid-task; written to
 * the person's user settings only. Autopilot where the OS sandbox cannot run falls back to Edits
 * auto, said once per window.
 */
export class HostApprovals implements vscode.Disposable {
  /** The header's picker is told when the level or what limits it changes. */
  onChange: ((view: ApprovalsView) => void) | undefined;
  private fallbackSaid = false;
  private readonly disposables: vscode.Disposable[];

  constructor(private readonly o: { sandbox?: HostSandbox; isTrusted: () => boolean; log: Logger }) {
    this.disposables = [
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration("fathom.approvals") || e.affectsConfiguration("fathom.sandbox.enabled"))
          this.changed();
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.changed()),
    ];
  }

  /** What the header shows. The sandbox is checked only when Autopilot is picked (never at activation). */
  view(): ApprovalsView {
    const settings = readSettings(vscode.workspace.getConfiguration("fathom"));
    const sandbox: SandboxState | undefined = !this.o.sandbox
      ? "off"
      : settings.approvals.level === "autopilot"
        ? this.o.sandbox.state(settings.sandbox)
        : this.o.sandbox.known(settings.sandbox);
    const { refused, ...view } = approvalsView(settings, { restricted: !this.o.isTrusted(), sandbox });
    if (refused && !this.fallbackSaid) {
      this.fallbackSaid = true;
      this.o.log.warn(refused);
      void vscode.window.showWarningMessage(`Fathom: ${refused}`);
    }
    return view;
  }

  /** The level the next tool call gets. */
  level(): ApprovalLevel {
    return this.view().level;
  }

  /** The header's pick: the person's user setting (a workspace's value may still lower it). */
  async choose(level: ApprovalLevel): Promise<void> {
    const config = vscode.workspace.getConfiguration("fathom");
    this.o.log.info(`Approvals: ${level} (user settings)`);
    await config.update("approvals", level, vscode.ConfigurationTarget.Global);
    // The configuration event follows; say it at once too, in case the value did not change.
    this.changed();
  }

  private changed(): void {
    this.onChange?.(this.view());
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
  }
}
