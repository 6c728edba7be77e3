// The ES build: the UMD one loads its parts with a dynamic require that bundles cannot follow.
import {
  applyEdits,
  modify,
  parse as parseJsonc,
  printParseErrorCode,
  type ParseError,
} from "jsonc-parser/lib/esm/main.js";
import * as os from "node:os";
import * as nodePath from "node:path";

/**
 * MCP server configurations in the shapes people already have: the common `mcpServers` object
 * (Claude Desktop, Cline, Cursor, `.mcp.json`) and VS Code's `.vscode/mcp.json` (`servers` and
 * `inputs`). Comments and trailing commas are accepted; a syntax error names file, line and
 * column, and one bad server never keeps the others from loading.
 */
export type McpTransport = "stdio" | "http" | "sse";

export interface McpServerConfig {
  name: string;
  transport: McpTransport;
  command?: string;
  args: string[];
  env: Record<string, string>;
  envFile?: string;
  cwd?: string;
  url?: string;
  headers: Record<string, string>;
  disabled: boolean;
  /** Per-request timeout for this server. */
  timeoutMs: number;
  /** Tools that run without asking (`autoApprove` / `alwaysAllow`). */
  autoApprove: string[];
  disabledTools: string[];
  /**
   * `false`: a stdio server the person trusts, started outside the OS sandbox. Honoured only in
   * the person's own file (`loadMcpConfigs`' `mayLeaveSandbox`), never in a repository's.
   */
  sandbox?: false;
  /** The file it came from, for messages and trust. */
  source: string;
  /** Values of `${input:id}` it uses: masked wherever the definition is shown or logged. */
  secrets?: string[];
}

export interface McpConfigProblem {
  file: string;
  line?: number;
  column?: number;
  server?: string;
  message: string;
}

export interface McpConfigFile {
  servers: McpServerConfig[];
  problems: McpConfigProblem[];
  /** `${input:id}` prompts the file declares (VS Code's `inputs`). */
  inputs: { id: string; description?: string; password?: boolean }[];
}

export const DEFAULT_MCP_TIMEOUT_MS = 60_000;

const TYPE_SPELLINGS: Record<string, McpTransport> = {
  stdio: "stdio",
  http: "http",
  streamablehttp: "http",
  "streamable-http": "http",
  streamable_http: "http",
  sse: "sse",
};

/** Line and column (1-based) of an offset, for messages. */
function position(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split("\n").length;
  return { line, column: offset - before.lastIndexOf("\n") };
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);
const stringMap = (v: unknown): Record<string, string> =>
  isRecord(v)
    ? Object.fromEntries(Object.entries(v).filter((e): e is [string, string] => typeof e[1] === "string"))
    : {};

/** Parses one config file's text. */
export function parseMcpConfig(text: string, file: string): McpConfigFile {
  const errors: ParseError[] = [];
  const data = parseJsonc(text, errors, { allowTrailingComma: true, disallowComments: false }) as unknown;
  const out: McpConfigFile = { servers: [], problems: [], inputs: [] };
  for (const e of errors) {
    out.problems.push({
      file,
      ...position(text, e.offset),
      message: `JSON syntax error: ${printParseErrorCode(e.error)}`,
    });
  }
  if (!isRecord(data)) {
    if (errors.length === 0)
      out.problems.push({ file, message: "An MCP configuration must be a JSON object with mcpServers (or servers)." });
    return out;
  }
  const table = isRecord(data.mcpServers) ? data.mcpServers : isRecord(data.servers) ? data.servers : undefined;
  if (!table) {
    out.problems.push({ file, message: 'No "mcpServers" (or "servers") object found.' });
    return out;
  }
  for (const [name, raw] of Object.entries(table)) {
    const server = normalizeServer(name, raw, file);
    if ("message" in server) out.problems.push(server);
    else out.servers.push(server);
  }
  if (Array.isArray(data.inputs)) {
    for (const input of data.inputs) {
      if (isRecord(input) && typeof input.id === "string") {
        out.inputs.push({
          id: input.id,
          ...(typeof input.description === "string" ? { description: input.description } : {}),
          password: input.password === true,
        });
      }
    }
  }
  return out;
}

function normalizeServer(name: string, raw: unknown, file: string): McpServerConfig | McpConfigProblem {
  if (!isRecord(raw)) return { file, server: name, message: `Server "${name}" must be an object.` };
  const typeText =
    typeof raw.type === "string" ? raw.type : typeof raw.transport === "string" ? raw.transport : undefined;
  let transport: McpTransport | undefined = typeText ? TYPE_SPELLINGS[typeText.toLowerCase()] : undefined;
  if (typeText && !transport) {
    return {
      file,
      server: name,
      message: `Server "${name}" has type "${typeText}"; use stdio, http (streamableHttp) or sse.`,
    };
  }
  transport ??= typeof raw.url === "string" ? "http" : "stdio";
  if (transport === "stdio" && typeof raw.command !== "string")
    return { file, server: name, message: `Server "${name}" needs a "command" (or a "url" for HTTP).` };
  if (transport !== "stdio" && typeof raw.url !== "string")
    return { file, server: name, message: `Server "${name}" needs a "url".` };
  const timeout = typeof raw.timeout === "number" && raw.timeout > 0 ? raw.timeout : undefined;
  return {
    name,
    transport,
    ...(typeof raw.command === "string" ? { command: raw.command } : {}),
    args: strings(raw.args),
    env: stringMap(raw.env),
    ...(typeof raw.envFile === "string" ? { envFile: raw.envFile } : {}),
    ...(typeof raw.cwd === "string" ? { cwd: raw.cwd } : {}),
    ...(typeof raw.url === "string" ? { url: raw.url } : {}),
    headers: stringMap(raw.headers),
    disabled: raw.disabled === true,
    // Cline's `timeout` is in seconds; anything above 1,000 is taken as milliseconds.
    timeoutMs: timeout === undefined ? DEFAULT_MCP_TIMEOUT_MS : timeout > 1000 ? timeout : timeout * 1000,
    autoApprove: [...strings(raw.autoApprove), ...strings(raw.alwaysAllow)],
    disabledTools: strings(raw.disabledTools),
    ...(raw.sandbox === false ? { sandbox: false as const } : {}),
    source: file,
  };
}

export interface VariableContext {
  workspaceFolder?: string;
  env: NodeJS.ProcessEnv;
  /**
   * The value of `${input:id}` (asked once and kept secret by the host); undefined: unknown.
   * Without it, `${input:…}` is left as written, to be expanded later with expandInputs (once
   * the person has approved the server the value would go to).
   */
  input?: (id: string) => string | undefined;
}

const INPUT = /\$\{input:([A-Za-z0-9_.-]+)\}/g;

/** The `${input:id}` ids a (not yet input-expanded) definition uses. */
export function inputIds(server: McpServerConfig): string[] {
  return [...new Set([...JSON.stringify(server).matchAll(INPUT)].map((m) => m[1]!))];
}

/** Fills in `${input:id}` values (listed in `secrets`); reports ids without a value. */
export function expandInputs(
  server: McpServerConfig,
  input: (id: string) => string | undefined,
): { server: McpServerConfig; unresolved: string[] } {
  const unresolved: string[] = [];
  const secrets = new Set(server.secrets ?? []);
  const expand = (text: string): string =>
    text.replace(INPUT, (whole, id: string) => {
      const value = input(id);
      if (value === undefined) unresolved.push(whole);
      else if (value) secrets.add(value);
      return value ?? whole;
    });
  return { server: mapStrings(server, expand, secrets), unresolved: [...new Set(unresolved)] };
}

function mapStrings(
  server: McpServerConfig,
  expand: (text: string) => string,
  secrets: Set<string>,
  local: (p: string) => string = (p) => p,
): McpServerConfig {
  const map = (m: Record<string, string>) => Object.fromEntries(Object.entries(m).map(([k, v]) => [k, expand(v)]));
  return {
    ...server,
    args: server.args.map(expand),
    env: map(server.env),
    headers: map(server.headers),
    ...(server.command !== undefined ? { command: expand(server.command) } : {}),
    ...(server.cwd !== undefined ? { cwd: local(expand(server.cwd)) } : {}),
    ...(server.url !== undefined ? { url: expand(server.url) } : {}),
    ...(server.envFile !== undefined ? { envFile: local(expand(server.envFile)) } : {}),
    ...(secrets.size ? { secrets: [...secrets] } : {}),
  };
}

/**
 * Expands `${workspaceFolder}`, `${userHome}`, `${env:NAME}` and `${input:id}` in every string
 * of a server's definition; a relative `cwd` or `envFile` is taken from the workspace folder.
 * Returns the names it could not resolve, so the server is reported, not started with a
 * literal `${…}`. The inputs' values are listed in `secrets`, to be masked when shown.
 */
export function expandVariables(
  server: McpServerConfig,
  ctx: VariableContext,
): { server: McpServerConfig; unresolved: string[] } {
  const unresolved: string[] = [];
  const secrets = new Set<string>();
  const expand = (text: string): string =>
    text.replace(
      /\$\{(workspaceFolder|userHome|env:([A-Za-z_][A-Za-z0-9_]*)|input:([A-Za-z0-9_.-]+))\}/g,
      (whole, name: string, envName?: string, inputId?: string) => {
        if (inputId !== undefined && !ctx.input) return whole;
        const value =
          envName !== undefined
            ? ctx.env[envName]
            : inputId !== undefined
              ? ctx.input?.(inputId)
              : name === "userHome"
                ? os.homedir()
                : ctx.workspaceFolder;
        if (value === undefined) {
          unresolved.push(whole);
          return whole;
        }
        if (inputId !== undefined && value) secrets.add(value);
        return value;
      },
    );
  const local = (p: string) =>
    ctx.workspaceFolder && !nodePath.isAbsolute(p) && !p.includes("${input:")
      ? nodePath.resolve(ctx.workspaceFolder, p)
      : p;
  return { server: mapStrings(server, expand, secrets, local), unresolved: [...new Set(unresolved)] };
}

/** `text` with every secret value replaced by a mask (longest first, so none shows in part). */
export function redactSecrets(text: string, secrets: readonly string[] | undefined): string {
  let out = text;
  for (const secret of [...(secrets ?? [])].sort((a, b) => b.length - a.length))
    if (secret) out = out.split(secret).join("••••••");
  return out;
}

/** The definition as approved and remembered: what runs, with secret values masked (a new token does not ask again). */
export function definitionText(server: McpServerConfig): string {
  const { secrets, autoApprove: _allowed, ...rest } = server;
  return redactSecrets(JSON.stringify(rest), secrets);
}

/** The command line or URL a person approves before a workspace-defined server starts. */
export function describeServer(server: McpServerConfig): string {
  const quote = (a: string) => (/^[\w@%+=:,./-]+$/.test(a) ? a : JSON.stringify(a));
  let text: string;
  if (server.transport !== "stdio") {
    const headers = Object.keys(server.headers);
    text = `${server.transport === "sse" ? "SSE" : "HTTP"} ${server.url}${headers.length ? ` (headers: ${headers.join(", ")})` : ""}`;
  } else {
    // Variables change what a program does (NODE_OPTIONS, LD_PRELOAD…), so they are part of what is approved.
    const env = Object.entries(server.env).map(([k, v]) => `${k}=${quote(v)}`);
    text = [...env, ...[server.command ?? "", ...server.args].map(quote)].join(" ");
    if (server.envFile) text += ` (with the variables of ${server.envFile})`;
    if (server.cwd) text += ` (in ${server.cwd})`;
  }
  return redactSecrets(text, server.secrets);
}

/**
 * A config file's text with `tool` added to the server's `autoApprove` list (comments and
 * layout kept), or undefined when the file does not define that server.
 */
export function withAutoApprovedTool(text: string, server: string, tool: string): string | undefined {
  const root = parseJsonc(text, [], { allowTrailingComma: true }) as
    Record<string, Record<string, { autoApprove?: unknown; alwaysAllow?: unknown }> | undefined> | undefined;
  const key = ["mcpServers", "servers"].find((k) => root?.[k]?.[server] !== undefined);
  if (!key) return undefined;
  const entry = root![key]![server]!;
  const listKey = Array.isArray(entry.alwaysAllow) && !Array.isArray(entry.autoApprove) ? "alwaysAllow" : "autoApprove";
  const list = Array.isArray(entry[listKey]) ? (entry[listKey] as unknown[]) : [];
  if (list.includes(tool)) return text;
  const edits = modify(text, [key, server, listKey], [...list, tool], {
    formattingOptions: { insertSpaces: true, tabSize: 2 },
  });
  return applyEdits(text, edits);
}
