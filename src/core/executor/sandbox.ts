import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, mkdirSync, statSync } from "node:fs";
import * as os from "node:os";
import * as nodePath from "node:path";
import type { SandboxRuntimeConfig } from "@anthropic-ai/sandbox-runtime";
import { sandboxLib } from "../vendor/libraries";
import { shellQuote } from "../trust/shellCommand";
import { sandboxTag } from "./sandboxLeftovers";
import { protectedInWorkspace } from "./workspaceProtection";

/**
 * Commands the agent runs go through the OS sandbox of `@anthropic-ai/sandbox-runtime`
 * (bubblewrap and socat on Linux, sandbox-exec on macOS): writes only in the workspace and a
 * private temp folder, the secrets a developer machine holds unreadable, and no network except
 * the domains allowed. An approved `npm test` in a stranger's repository runs whatever its
 * package.json says; the sandbox is what keeps that from reading `~/.ssh` or posting it anywhere.
 */
export interface SandboxOptions {
  /** Extra folders or files no command may read (the person's setting). */
  denyRead?: readonly string[];
  /** Domains commands may reach (`registry.npmjs.org`, `*.github.com`). Default: none. */
  allowedDomains?: readonly string[];
  /** Folders of the host's own that hold secrets (VS Code's and Fathom's storage). */
  privateFolders?: readonly string[];
  /** Asked about a domain no rule decides; without it such connections are refused. */
  askDomain?: (host: string, port: number | undefined) => Promise<boolean>;
}

let namespaceProblem: string | null | undefined;

/**
 * Whether bubblewrap can make the namespaces the sandbox uses (user, PID, network). A container
 * without user namespaces has bwrap installed and still cannot run it: asked once, by running it.
 */
function namespacesRefused(): string | null {
  if (namespaceProblem !== undefined) return namespaceProblem;
  const probe = spawnSync(
    "bwrap",
    [
      "--unshare-user",
      "--unshare-pid",
      "--unshare-net",
      "--ro-bind",
      "/",
      "/",
      "--dev",
      "/dev",
      "--proc",
      "/proc",
      "--",
      "true",
    ],
    {
      timeout: 10_000,
      stdio: ["ignore", "ignore", "pipe"],
      encoding: "utf8",
    },
  );
  namespaceProblem =
    probe.error === undefined && probe.status === 0
      ? null
      : ((probe.stderr ?? "")
          .split("\n")
          .map((l) => l.trim())
          .find(Boolean)
          ?.slice(0, 300) ??
        (probe.error?.message || `bwrap exited with ${probe.status ?? probe.signal}`));
  return namespaceProblem;
}

/** Why the sandbox cannot run here, with what to do; undefined when it can. */
export function sandboxUnavailable(): string | undefined {
  // The library has a Windows backend whose helper Fathom does not ship; commands there are asked.
  if (process.platform === "win32") return "The OS sandbox does not run on Windows yet.";
  if (!sandboxLib().SandboxManager.isSupportedPlatform())
    return `The OS sandbox does not run on ${process.platform} here.`;
  const check = sandboxLib().SandboxManager.checkDependencies();
  if (check.errors.length > 0) {
    const missing = check.errors.join("; ");
    return process.platform === "linux"
      ? `The OS sandbox cannot start (${missing}). Install bubblewrap and socat: sudo apt-get install bubblewrap socat`
      : `The OS sandbox cannot start (${missing}).`;
  }
  if (process.platform !== "linux") return undefined;
  const refused = namespacesRefused();
  return refused === null
    ? undefined
    : `The OS sandbox cannot start: bubblewrap may not create namespaces here (${refused}). This kernel or container does not allow unprivileged user namespaces; on a host, enable them (sysctl kernel.unprivileged_userns_clone=1), or run the container with user namespaces allowed.`;
}

/** Fathom's own folders (the MCP config with its tokens, saved CLI tasks and checkpoints). */
export function fathomStorageFolders(home = os.homedir(), env: NodeJS.ProcessEnv = process.env): string[] {
  return [
    nodePath.join(env.XDG_CONFIG_HOME || nodePath.join(home, ".config"), "fathom"),
    nodePath.join(env.XDG_DATA_HOME || nodePath.join(home, ".local", "share"), "fathom"),
  ];
}

/** Folders and files that hold a developer's credentials, relative to the home folder. */
const HOME_SECRETS = [
  ".ssh",
  ".aws",
  ".gnupg",
  ".kube",
  ".docker",
  ".config/gcloud",
  ".azure",
  ".netrc",
  ".npmrc",
  ".pypirc",
  ".git-credentials",
  ".config/gh",
  ".config/hub",
  ".terraform.d",
  ".vault-token",
  ".password-store",
  // Browser profiles.
  ".mozilla",
  ".config/google-chrome",
  ".config/chromium",
  ".config/BraveSoftware",
  ".config/microsoft-edge",
  "Library/Application Support/Google/Chrome",
  "Library/Application Support/Firefox",
  "Library/Keychains",
  // VS Code's own storage (its secret store and every extension's), and code-server's.
  ".config/Code",
  ".config/Code - OSS",
  ".config/VSCodium",
  ".vscode-server",
  ".local/share/code-server",
  "Library/Application Support/Code",
];

/**
 * The bundled seccomp helper (dist/vendor/seccomp/<arch>/apply-seccomp, beside the bundle) must
 * be executable; an extension installer may not keep the mode a vsix recorded.
 */
function ensureHelperExecutable(): void {
  const arch = process.arch === "x64" ? "x64" : process.arch === "arm64" ? "arm64" : undefined;
  if (!arch || typeof __filename !== "string") return;
  const helper = nodePath.join(nodePath.dirname(__filename), "vendor", "seccomp", arch, "apply-seccomp");
  try {
    if ((statSync(helper).mode & 0o111) === 0) chmodSync(helper, 0o755);
  } catch {
    // Not bundled (tests run from source, where the package's own copy is used).
  }
}

export function defaultDenyRead(home = os.homedir()): string[] {
  return [...HOME_SECRETS.map((p) => nodePath.join(home, p)), ...fathomStorageFolders(home)];
}

export interface WrappedCommand {
  /** The shell command line that runs `command` inside the sandbox. */
  command: string;
  id: string;
  /** Text in the command line of the sandbox's processes, to find any left behind (./sandboxLeftovers.ts). */
  tag: string;
}

/** One sandbox per process (the library's manager is a singleton); commands are wrapped per call. */
export class CommandSandbox {
  private ready: Promise<void> | undefined;
  readonly tempDir: string;

  constructor(private readonly options: SandboxOptions = {}) {
    // A private temp folder: commands may write there, and nowhere else outside the workspace.
    this.tempDir = nodePath.join(os.tmpdir(), `fathom-sandbox-${process.pid}-${randomBytes(4).toString("hex")}`);
  }

  get allowedDomains(): readonly string[] {
    return this.options.allowedDomains ?? [];
  }

  /** Whether a connection to a domain nobody allowed is asked of the person (else refused). */
  get asksForDomains(): boolean {
    return this.options.askDomain !== undefined;
  }

  /** The folders and files no sandboxed command may read. */
  get deniedReads(): readonly string[] {
    return [...defaultDenyRead(), ...(this.options.privateFolders ?? []), ...(this.options.denyRead ?? [])];
  }

  private config(): SandboxRuntimeConfig {
    return {
      // The library also write-protects git and shell files found below process.cwd(), with a
      // ripgrep walk of it before every command: in VS Code that directory is not the workspace
      // and may be / (ten seconds a command). Fathom protects the command's workspace itself
      // (./workspaceProtection.ts), so the walk is given a ripgrep that lists nothing.
      ripgrep: { command: "true" },
      network: { allowedDomains: [...this.allowedDomains], deniedDomains: [] },
      filesystem: {
        denyRead: [...this.deniedReads],
        allowWrite: [this.tempDir],
        denyWrite: [],
      },
    };
  }

  private start(): Promise<void> {
    this.ready ??= (async () => {
      mkdirSync(this.tempDir, { recursive: true, mode: 0o700 });
      ensureHelperExecutable();
      const ask = this.options.askDomain;
      await sandboxLib().SandboxManager.initialize(
        this.config(),
        ask
          ? async ({ host, port }) =>
              (await ask(host, port))
                ? true
                : { allow: false as const, reason: `${host} was not allowed by the person` }
          : undefined,
      );
    })();
    return this.ready;
  }

  /** The command wrapped to run in the sandbox with the workspace `cwd` writable. */
  async wrap(command: string, cwd: string, signal?: AbortSignal): Promise<WrappedCommand> {
    await this.start();
    const id = randomBytes(16).toString("base64url");
    const base = this.config();
    // The private temp folder is the command's TMPDIR (the library's own default is not writable here).
    const tmp = shellQuote(this.tempDir);
    const tag = sandboxTag(id);
    const wrapped = await sandboxLib().SandboxManager.wrapWithSandbox(
      `export TMPDIR=${tmp} TMP=${tmp} TEMP=${tmp} ${tag}\n${command}`,
      undefined,
      { filesystem: { ...base.filesystem, allowWrite: [cwd, this.tempDir], denyWrite: protectedInWorkspace(cwd) } },
      signal,
      { commandId: id, commandText: command },
    );
    return { command: wrapped, id, tag };
  }

  /** What the sandbox refused while `id` ran (connections it blocked), one line each. */
  refusals(id: string): string[] {
    const annotated = sandboxLib().SandboxManager.annotateStderrWithSandboxFailures(id, "");
    const block = /<sandbox_violations>([\s\S]*?)<\/sandbox_violations>/.exec(annotated)?.[1] ?? "";
    return block
      .split("\n")
      .map((l) => l.trim())
      .filter(Boolean);
  }

  async dispose(): Promise<void> {
    if (this.ready)
      await sandboxLib()
        .SandboxManager.reset()
        .catch(() => undefined);
    this.ready = undefined;
  }
}
