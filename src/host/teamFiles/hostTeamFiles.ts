import * as vscode from "vscode";
import {
  TeamFileCache,
  discoverTeamFiles,
  runSlash,
  userTeamFolders,
  type BackendProtocol,
  type EditorContext,
  type PromptCommand,
  type SlashRun,
  type TeamCatalog,
  type TeamFileRef,
} from "../../core";
import type { TeamFilesView } from "../../protocol";
import type { Logger } from "../log";
import { workspaceFileUri } from "../workspaceUris";
import type { SessionTeamFiles } from "../tasks/teamRun";
import { teamFilesView } from "./teamFilesView";

/** The workspace's team files, for the watcher (one pattern per folder; VS Code's globs do not nest braces). */
const WORKSPACE_GLOB =
  "{**/AGENTS.md,**/CLAUDE.md,.clinerules,.clinerules/**,.github/copilot-instructions.md,.github/instructions/**,.github/prompts/**,.github/skills/**,.github/agents/**,.claude/**,.cursor/rules/**,.agents/skills/**}";
/** The person's folders: only what Fathom reads there (`~/.claude` holds much else). */
const USER_GLOB = "{AGENTS.md,CLAUDE.md,prompts/*,commands/*,agents/*,skills/**}";
/** Changes closer together than this are read once. */
const SETTLE_MS = 300;

/**
 * The team files of this window: found on first use (never at activation) through the agent's
 * guarded backend and the person's folders, kept in a parse cache, and read again when a
 * watcher sees one change (the watchers start with the first discovery). `onChange` gets the
 * list the Fathom view shows.
 */
export class HostTeamFiles implements SessionTeamFiles, vscode.Disposable {
  private readonly cache = new TeamFileCache();
  private current: Promise<TeamCatalog> | undefined;
  private watchers: vscode.Disposable[] | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private last: TeamCatalog | undefined;

  /** The list changed (after each discovery). */
  onChange: ((view: TeamFilesView) => void) | undefined;

  constructor(
    private readonly log: Logger,
    /** The workspace's files through the guard (undefined: no folder is open). */
    private readonly workspace: () => BackendProtocol | undefined,
    private readonly env: NodeJS.ProcessEnv = process.env,
  ) {}

  catalog(): Promise<TeamCatalog> {
    this.watch();
    this.current ??= this.discover();
    return this.current;
  }

  async view(): Promise<TeamFilesView> {
    return teamFilesView(await this.catalog());
  }

  async expandSlash(text: string, catalog: TeamCatalog, provider: string): Promise<SlashRun | undefined> {
    const backend = this.workspace();
    if (!backend) return undefined;
    return runSlash({ text, catalog, provider, backend, editor: editorContext(), ask: askInputs });
  }

  /** Opens a file the list showed, by its source; only files that were found (the webview names them). */
  async open(source: string): Promise<void> {
    const ref = this.last ? findRef(this.last, source) : undefined;
    const uri = ref?.realPath ? vscode.Uri.file(ref.realPath) : ref?.path ? workspaceFileUri(ref.path) : undefined;
    if (!uri) {
      this.log.warn(`Team files: refused to open ${source}: it is not one of the files found`);
      return;
    }
    try {
      await vscode.window.showTextDocument(uri, { preview: true });
    } catch (err) {
      void vscode.window.showWarningMessage(`Fathom: could not open ${source}: ${(err as Error).message}`);
    }
  }

  private async discover(): Promise<TeamCatalog> {
    const started = performance.now();
    const folders = vscode.workspace.workspaceFolders ?? [];
    const backend = this.workspace();
    const catalog = await discoverTeamFiles({
      ...(backend ? { workspace: backend, roots: folders.length > 1 ? folders.map((f) => `/${f.name}`) : ["/"] } : {}),
      user: userTeamFolders(this.env),
      cache: this.cache,
    });
    this.last = catalog;
    const count = catalog.rules.length + catalog.commands.length + catalog.skills.length + catalog.agents.length;
    this.log.info(
      `Team files: ${count} found, ${catalog.problems.length} problems (${Math.round(performance.now() - started)} ms)`,
    );
    this.onChange?.(teamFilesView(catalog));
    return catalog;
  }

  /** A team file changed: read again once the changes settle (only what changed is parsed). */
  private changed(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.current = this.discover();
      this.current.catch((e: unknown) => this.log.error(`Team files: ${String(e)}`));
    }, SETTLE_MS);
  }

  private watch(): void {
    if (this.watchers) return;
    const patterns = [
      ...(vscode.workspace.workspaceFolders ?? []).map((f) => new vscode.RelativePattern(f, WORKSPACE_GLOB)),
      ...userTeamFolders(this.env).map((f) => new vscode.RelativePattern(vscode.Uri.file(f.dir), USER_GLOB)),
    ];
    this.watchers = patterns.map((pattern) => {
      const watcher = vscode.workspace.createFileSystemWatcher(pattern);
      const disposables = [
        watcher,
        watcher.onDidCreate(() => this.changed()),
        watcher.onDidChange(() => this.changed()),
        watcher.onDidDelete(() => this.changed()),
      ];
      return { dispose: () => disposables.forEach((d) => d.dispose()) };
    });
  }

  dispose(): void {
    clearTimeout(this.timer);
    for (const w of this.watchers ?? []) w.dispose();
  }
}

function findRef(catalog: TeamCatalog, source: string): TeamFileRef | undefined {
  const refs = [...catalog.rules, ...catalog.commands, ...catalog.skills, ...catalog.agents].map((x) => x.file);
  return refs.find((r) => r.label === source);
}

/** `${file}` and `${selection}`: the active editor's file (as the agent names it) and selected text. */
function editorContext(): EditorContext {
  const editor = vscode.window.activeTextEditor;
  const folder = vscode.workspace.workspaceFolders?.[0];
  const base: EditorContext = folder ? { workspaceFolder: folder.uri.fsPath } : {};
  if (!editor || editor.document.uri.scheme !== "file") return base;
  const owner = vscode.workspace.getWorkspaceFolder(editor.document.uri);
  const relative = owner
    ? vscode.workspace.asRelativePath(editor.document.uri, (vscode.workspace.workspaceFolders?.length ?? 0) > 1)
    : undefined;
  const selection = editor.selection.isEmpty ? undefined : editor.document.getText(editor.selection);
  return { ...base, ...(relative ? { file: `/${relative}` } : {}), ...(selection ? { selection } : {}) };
}

/** `${input:x}` asked in an input box each; Escape leaves it empty (the transcript says so). */
async function askInputs(
  command: PromptCommand,
  missing: { name: string; placeholder?: string }[],
): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const input of missing) {
    const value = await vscode.window.showInputBox({
      title: `/${command.name}: ${input.name}`,
      prompt: input.placeholder ?? `A value for ${input.name} (from ${command.file.label})`,
      ignoreFocusOut: true,
    });
    if (value === undefined) break;
    out[input.name] = value;
  }
  return out;
}
