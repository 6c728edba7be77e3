import { WrappingBackend } from "../../backends/wrappingBackend";
import type { BackendProtocol, EditResult, WriteResult } from "../../backends/protocol";
import type { CommandSandbox } from "../../executor/sandbox";
import { secretFileMatcher } from "../../trust/secretFiles";
import { chooseLanguageServers } from "./languageServers";
import { lspCodeIntelligence, type LspCodeIntelligence } from "./lspCodeIntelligence";

/** What a headless run says about its language servers (the CLI's stderr; the Action's log). */
export interface HeadlessCodeIntelOptions {
  log?: (line: string) => void;
  /** PATH to look for servers on (default: this process's). */
  pathVar?: string;
  requestTimeoutMs?: number;
}

/**
 * A backend that tells the language servers which files the agent wrote, so get_problems covers
 * them (each is opened in its server at the next call). Everything else goes to `inner`.
 */
class ChangeNotifyingBackend extends WrappingBackend {
  readonly currentText?: BackendProtocol["currentText"];
  readonly deleteFile?: BackendProtocol["deleteFile"];

  constructor(
    inner: BackendProtocol,
    private readonly changed: (path: string) => void,
  ) {
    super(inner);
    if (inner.currentText) this.currentText = (path) => inner.currentText!(path);
    if (inner.deleteFile) this.deleteFile = (path, expected) => inner.deleteFile!(path, expected);
  }

  private note<T extends WriteResult | EditResult>(r: T): T {
    if (r.error === undefined && r.path) this.changed(r.path);
    return r;
  }
  async write(path: string, content: string): Promise<WriteResult> {
    return this.note(await this.inner.write(path, content));
  }
  async edit(path: string, oldString: string, newString: string, replaceAll?: boolean): Promise<EditResult> {
    return this.note(await this.inner.edit(path, oldString, newString, replaceAll));
  }
  async commitChange(path: string, before: string | null, after: string): Promise<WriteResult> {
    return this.note(await this.inner.commitChange(path, before, after));
  }
}

/**
 * The code intelligence of a headless run: the language servers its workspace calls for, found
 * installed (what is missing is logged, with what to install), none started yet; and the backend
 * the agent should write through so get_problems covers what it changed. Undefined when no
 * server is found: the run offers no code intelligence tools.
 */
/** What a headless run gives the starter, and what it gets back (see runHeadless's `codeIntel`). */
export type HeadlessCodeIntel = (run: {
  root: string;
  backend: BackendProtocol;
  sandbox: CommandSandbox | undefined;
  secretFiles?: readonly string[];
}) => { intel: LspCodeIntelligence; backend: BackendProtocol } | undefined;

export function headlessCodeIntelligence(
  o: HeadlessCodeIntelOptions & {
    root: string;
    backend: BackendProtocol;
    sandbox: CommandSandbox | undefined;
    secretFiles?: readonly string[];
  },
): { intel: LspCodeIntelligence; backend: BackendProtocol } | undefined {
  const choice = chooseLanguageServers(o.root, {
    sandboxed: o.sandbox !== undefined,
    ...(o.pathVar !== undefined ? { pathVar: o.pathVar } : {}),
  });
  for (const line of choice.missing) o.log?.(`code intelligence: ${line}`);
  if (choice.servers.length === 0) return undefined;
  o.log?.(
    `code intelligence: ${choice.servers.map((s) => `${s.name} (${s.command})`).join(", ")}, started at the first use${o.sandbox ? " inside the OS sandbox" : ""}`,
  );
  const intel = lspCodeIntelligence({
    root: o.root,
    servers: choice.servers,
    backend: o.backend,
    isSecret: secretFileMatcher(o.secretFiles),
    ...(o.sandbox ? { sandbox: o.sandbox } : {}),
    ...(o.log ? { log: (line: string) => o.log!(`code intelligence: ${line}`) } : {}),
    ...(o.requestTimeoutMs ? { requestTimeoutMs: o.requestTimeoutMs } : {}),
  });
  return { intel, backend: new ChangeNotifyingBackend(o.backend, (path) => intel.touched(path)) };
}
