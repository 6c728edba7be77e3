/**
 * VS Code's git extension (`vscode.git`, API 1) as far as the commit message needs it, and how
 * a repository is found in it: the one whose Source Control button was pressed, else the only
 * one, else the person picks. The types are declared here, as the extension ships no typings;
 * this file does not import `vscode`, so its decisions are tested with fakes.
 */

export interface GitUri {
  readonly fsPath: string;
  readonly scheme: string;
  toString(): string;
}

export interface GitChange {
  readonly uri: GitUri;
  /** The extension's `Status` enum. */
  readonly status: number;
}

/** `Status.UNTRACKED` of the extension's API. */
export const UNTRACKED = 7;

export interface GitRepository {
  readonly rootUri: GitUri;
  /** The Source Control view's message box. */
  readonly inputBox: { value: string };
  readonly state: {
    readonly indexChanges: readonly GitChange[];
    readonly workingTreeChanges: readonly GitChange[];
    /** Filled only when `git.untrackedChanges` is `separate` (else they are working-tree changes). */
    readonly untrackedChanges?: readonly GitChange[];
  };
  status(): Promise<void>;
  diff(cached?: boolean): Promise<string>;
  log(options?: {
    maxEntries?: number;
  }): Promise<readonly { readonly message: string; readonly parents: readonly string[] }[]>;
}

export interface GitApi {
  /** `uninitialized` until the extension has looked for the window's repositories. */
  readonly state: "uninitialized" | "initialized";
  onDidChangeState(listener: (state: "uninitialized" | "initialized") => unknown): { dispose(): unknown };
  readonly repositories: readonly GitRepository[];
  getRepository(uri: GitUri): GitRepository | null;
  /** Opens a repository the extension has not (absent from old versions of the API). */
  openRepository?(root: GitUri): Promise<GitRepository | null>;
}

export interface GitExtensionExports {
  readonly enabled: boolean;
  /** Throws while the extension is disabled (git.enabled is off). */
  getAPI(version: 1): GitApi;
}

/** What `vscode.extensions.getExtension("vscode.git")` gives, as far as it is used. */
export interface GitExtension {
  activate(): Thenable<GitExtensionExports>;
}

/** Something the person must do, with the command that helps them do it. */
export interface Problem {
  message: string;
  action?: { label: string; command: string; args?: unknown[] };
}

export const RESTRICTED_MODE: Problem = {
  message:
    "VS Code's Git extension does not run in Restricted Mode, so Fathom cannot read this repository's changes or fill in its commit message. Trust this folder (Manage Workspace Trust) and press Generate Commit Message again, or run `fathom commit-message` in a terminal.",
  action: { label: "Manage Workspace Trust", command: "workbench.trust.manage" },
};

/** The git extension's API, or what stops Fathom from using it. */
export async function openGitApi(o: {
  extension: GitExtension | undefined;
  isTrusted: boolean;
}): Promise<{ api: GitApi } | { problem: Problem }> {
  // In Restricted Mode VS Code does not start the extension at all (it does not support it).
  if (!o.isTrusted) return { problem: RESTRICTED_MODE };
  const unavailable = (why: string): { problem: Problem } => ({
    problem: {
      message: `VS Code's Git extension is not available in this window (${why}), and Fathom reads the changes and fills in the commit message through it. Enable the built-in Git extension, then try again.`,
      action: { label: "Show Git Extension", command: "workbench.extensions.search", args: ["@builtin git"] },
    },
  });
  if (!o.extension) return unavailable("it is disabled or missing");
  let exports: GitExtensionExports;
  try {
    exports = await o.extension.activate();
  } catch (error) {
    return unavailable(`it failed to start: ${error instanceof Error ? error.message : String(error)}`);
  }
  const turnedOff: { problem: Problem } = {
    problem: {
      message:
        "Git is turned off in VS Code's settings (git.enabled), so there is no repository to write a commit message for.",
      action: { label: "Open Setting", command: "workbench.action.openSettings", args: ["git.enabled"] },
    },
  };
  if (!exports.enabled) return turnedOff;
  try {
    return { api: exports.getAPI(1) };
  } catch {
    return turnedOff;
  }
}

export interface FindRepositoryOptions {
  /** The command's argument: the Source Control whose button was pressed (its `rootUri`), or a Uri. */
  hint: unknown;
  /** The window's folders: a repository the extension has not opened yet is looked for in them. */
  folders: readonly GitUri[];
  /** Asks which of several repositories; undefined when the person dismissed the question. */
  pick(repositories: readonly GitRepository[]): Promise<GitRepository | undefined>;
  /** How long to wait for the extension to finish looking for repositories. */
  waitMs?: number;
}

export type FoundRepository = { repository: GitRepository } | { problem: Problem } | { dismissed: true };

export async function findRepository(api: GitApi, o: FindRepositoryOptions): Promise<FoundRepository> {
  if (api.state !== "initialized" && !(await initialized(api, o.waitMs ?? 20_000))) {
    return {
      problem: {
        message: "VS Code's Git extension is still looking for this window's repositories. Try again in a moment.",
      },
    };
  }
  const pressed = uriOf(o.hint);
  if (pressed) {
    const repository = api.getRepository(pressed) ?? (await open(api, pressed));
    return repository ? { repository } : { problem: { message: `There is no git repository at ${pressed.fsPath}.` } };
  }
  const repositories = [...api.repositories];
  if (repositories.length === 0) {
    // Not opened yet: auto-detection off, a repository made a moment ago, or one above the folder.
    for (const folder of o.folders) {
      const repository = await open(api, folder);
      if (repository && !repositories.includes(repository)) repositories.push(repository);
    }
  }
  if (repositories.length === 0) {
    return {
      problem: {
        message:
          "There is no git repository in this window, so there are no changes to write a commit message for. Open a folder that is one, or make this folder one (Initialize Repository).",
        action: { label: "Initialize Repository", command: "git.init" },
      },
    };
  }
  if (repositories.length === 1) return { repository: repositories[0]! };
  const picked = await o.pick(repositories);
  return picked ? { repository: picked } : { dismissed: true };
}

/** The Uri a command argument stands for: a SourceControl's (or repository's) root, or a Uri. */
export function uriOf(hint: unknown): GitUri | undefined {
  const isUri = (v: unknown): v is GitUri =>
    typeof v === "object" &&
    v !== null &&
    typeof (v as GitUri).fsPath === "string" &&
    typeof (v as GitUri).scheme === "string";
  if (isUri(hint)) return hint;
  const root = typeof hint === "object" && hint !== null ? (hint as { rootUri?: unknown }).rootUri : undefined;
  return isUri(root) ? root : undefined;
}

async function open(api: GitApi, uri: GitUri): Promise<GitRepository | null> {
  if (!api.openRepository || uri.scheme !== "file") return null;
  return api.openRepository(uri).catch(() => null);
}

function initialized(api: GitApi, waitMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      listener.dispose();
      resolve(api.state === "initialized");
    }, waitMs);
    const listener = api.onDidChangeState((state) => {
      if (state !== "initialized") return;
      clearTimeout(timer);
      listener.dispose();
      resolve(true);
    });
  });
}
