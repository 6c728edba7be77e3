import * as path from "node:path";
import * as vscode from "vscode";
import { RemoteBranches } from "../../core";
import { noRemoteBranches, type RemoteBranchesView } from "../../protocol";
import type { Logger } from "../log";
import { CheckpointTexts } from "../review/checkpointTexts";

export type RemoteBranchAction = "refresh" | "diff" | "apply" | "checkout";

/**
 * The window's side of the remotes' `fathom/*` branches (pushed by the GitHub Action or another
 * machine): fetched only when the person opens the Worktrees list or presses Refresh (never at
 * activation: a fetch is network and may ask a credential helper), listed with their files,
 * each file's diff in VS Code's diff editor, Apply into the working tree (all or nothing), and
 * Check out as a worktree opened on request in a new window.
 */
export class HostRemoteBranches implements vscode.Disposable {
  private readonly core: RemoteBranches | undefined;
  private view: RemoteBranchesView = noRemoteBranches();
  private probed = false;
  private refreshing: Promise<void> | undefined;
  private readonly texts = new CheckpointTexts();
  private readonly changes = new vscode.EventEmitter<RemoteBranchesView>();
  readonly onDidChange = this.changes.event;

  constructor(
    private readonly o: {
      root: string | undefined;
      log: Logger;
      worktreesDir?: string;
      tell(level: "info" | "warning", text: string): void;
    },
  ) {
    this.core = o.root
      ? new RemoteBranches({ repoDir: o.root, ...(o.worktreesDir ? { worktreesDir: o.worktreesDir } : {}) })
      : undefined;
  }

  get current(): RemoteBranchesView {
    return this.view;
  }

  /** Once the workspace is known to be a repository: whether it has a remote (a local `git remote`, no network). */
  probe(): void {
    if (this.probed || !this.core) return;
    this.probed = true;
    void this.core.remotes().then((remotes) => this.set({ hasRemote: remotes.length > 0 }));
  }

  async action(action: RemoteBranchAction, ref?: string, file?: string): Promise<void> {
    if (!this.core) return;
    try {
      switch (action) {
        case "refresh":
          return await this.refresh();
        case "diff":
          if (ref && file) await this.diff(ref, file);
          return;
        case "apply":
          if (ref) await this.apply(ref);
          return;
        case "checkout":
          if (ref) await this.checkOut(ref);
          return;
      }
    } catch (e) {
      this.o.log.warn(`Remote branches: ${action} ${ref ?? ""}: ${(e as Error).message}`);
      this.o.tell("warning", (e as Error).message);
    }
  }

  /** Fetches and lists again; a refresh asked while one runs joins it. */
  refresh(): Promise<void> {
    this.refreshing ??= (async () => {
      this.set({ fetching: true });
      try {
        const outcomes = await this.core!.fetch();
        const problems = outcomes.flatMap((f) => (f.ok ? [] : [`${f.remote}: ${f.reason}`]));
        for (const p of problems) this.o.log.warn(`Remote branches: could not fetch ${p}`);
        const branches = await this.core!.list();
        this.set({
          hasRemote: outcomes.length > 0,
          fetching: false,
          fetchedAt: Date.now(),
          problems,
          branches: branches.map(({ ref, remote, branch, subject, files }) => ({
            ref,
            remote,
            branch,
            subject,
            files,
          })),
        });
      } catch (e) {
        this.set({ fetching: false, fetchedAt: Date.now(), problems: [(e as Error).message] });
      } finally {
        this.refreshing = undefined;
      }
    })();
    return this.refreshing;
  }

  private async diff(ref: string, file: string): Promise<void> {
    const { branch, before, after } = await this.core!.texts(ref, file);
    const name = `${branch.remote}/${branch.branch}`;
    const left = this.texts.put(
      `/${file}`,
      before ?? "",
      before === null ? "absent where the branch started" : "where the branch started",
    );
    const right = this.texts.put(`/${file}`, after ?? "", after === null ? `deleted on ${name}` : `on ${name}`);
    await vscode.commands.executeCommand("vscode.diff", left, right, `${path.posix.basename(file)} (start ↔ ${name})`, {
      preview: true,
      preserveFocus: true,
    });
  }

  private async apply(ref: string): Promise<void> {
    const result = await this.core!.apply(ref);
    this.o.log.info(`Remote branch ${ref}: ${result.message}`);
    this.o.tell(result.ok ? "info" : "warning", result.message);
  }

  private async checkOut(ref: string): Promise<void> {
    const made = await this.core!.checkOut(ref);
    this.o.log.info(`Remote branch ${ref} checked out as ${made.branch} in ${made.path}`);
    const open = "Open in New Window";
    const answer = await vscode.window.showInformationMessage(
      `Fathom: ${made.branch} is checked out in its own worktree, ${made.path}.`,
      open,
    );
    if (answer === open)
      await vscode.commands.executeCommand("vscode.openFolder", vscode.Uri.file(made.path), { forceNewWindow: true });
  }

  private set(change: Partial<RemoteBranchesView>): void {
    this.view = { ...this.view, ...change };
    this.changes.fire(this.view);
  }

  dispose(): void {
    this.changes.dispose();
  }
}
