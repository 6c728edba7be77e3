/**
 * Programs that run a command line given in their own arguments: `find … -exec rm {} +`,
 * `git -c core.pager='…'`, `git rebase --exec '…'`, `trap '…' EXIT`, `alias x='…'`. The
 * command parser (./shellCommand.ts) checks what they run like any other command, so a deny
 * pattern cannot be stepped around through them and an allow pattern for the outer program
 * does not auto-run the inner one.
 */
export interface CodeInArguments {
  /** Why the line is not simple. */
  why: string;
  /** Shell command lines the program runs (checked as scripts). */
  scripts: string[];
  /** Commands it runs as argument lists. */
  commands: string[][];
  /** Code it runs that cannot be read here. */
  unreadable: string[];
}

const FIND_ACTIONS = new Set(["-exec", "-execdir", "-ok", "-okdir"]);

/** `find`'s actions: the words after -exec up to `;` or `+`. */
function findActions(args: string[]): string[][] {
  const commands: string[][] = [];
  for (let i = 0; i < args.length; i++) {
    if (!FIND_ACTIONS.has(args[i]!)) continue;
    const end = args.findIndex((a, j) => j > i && (a === ";" || a === "+"));
    commands.push(args.slice(i + 1, end === -1 ? undefined : end));
    if (end !== -1) i = end;
  }
  return commands.filter((c) => c.length > 0);
}

/** git settings whose value is a command git runs (through the shell). */
const GIT_COMMAND_KEYS =
  /^(alias\..+|core\.(pager|editor|sshcommand|fsmonitor|askpass|hookspath)|sequence\.editor|diff\.external|pager\..+|.+\.(textconv|command|cmd|program|helper|tool|clean|smudge|process)|credential\..*|uploadpack\..+|receivepack\..+)$/i;
/** git options (of any subcommand) whose value is a command. */
const GIT_COMMAND_OPTIONS = new Set(["-x", "--exec", "--extcmd", "--upload-pack", "--receive-pack", "-u"]);

function gitCode(args: string[]): CodeInArguments | undefined {
  const out: CodeInArguments = { why: "git is told to run a command", scripts: [], commands: [], unreadable: [] };
  let subcommand: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (subcommand === undefined) {
      if (arg === "-c" && args[i + 1] !== undefined) {
        const setting = args[++i]!;
        const eq = setting.indexOf("=");
        const key = eq === -1 ? setting : setting.slice(0, eq);
        if (GIT_COMMAND_KEYS.test(key)) out.scripts.push(setting.slice(eq + 1).replace(/^!/, ""));
        continue;
      }
      if (arg.startsWith("--config-env")) {
        const value = arg.includes("=") ? arg.slice(arg.indexOf("=") + 1) : (args[++i] ?? "");
        if (GIT_COMMAND_KEYS.test(value.split("=")[0] ?? ""))
          out.unreadable.push("a git setting taken from an environment variable");
        continue;
      }
      if (!arg.startsWith("-")) subcommand = arg;
      continue;
    }
    if (subcommand === "submodule" && arg === "foreach") {
      out.scripts.push(
        args
          .slice(i + 1)
          .filter((a) => a !== "--recursive")
          .join(" "),
      );
      break;
    }
    if (subcommand === "bisect" && arg === "run") {
      out.commands.push(args.slice(i + 1));
      break;
    }
    const eq = arg.indexOf("=");
    const name = eq === -1 ? arg : arg.slice(0, eq);
    if (
      GIT_COMMAND_OPTIONS.has(name) &&
      !(
        name === "-u" &&
        subcommand !== "fetch" &&
        subcommand !== "clone" &&
        subcommand !== "ls-remote" &&
        subcommand !== "archive"
      )
    ) {
      const value = eq === -1 ? args[++i] : arg.slice(eq + 1);
      if (value !== undefined) out.scripts.push(value);
    }
  }
  return out.scripts.length || out.commands.length || out.unreadable.length ? out : undefined;
}

/** What `program` (its folder dropped) runs of its arguments, or undefined when nothing. */
export function codeInArguments(program: string, args: string[]): CodeInArguments | undefined {
  switch (program) {
    case "find": {
      const commands = findActions(args);
      return commands.length
        ? { why: "it runs another command through find -exec", scripts: [], commands, unreadable: [] }
        : undefined;
    }
    case "git":
      return gitCode(args);
    case "trap":
      return args[0] !== undefined && !args[0].startsWith("-")
        ? { why: "it sets a trap", scripts: [args[0]], commands: [], unreadable: [] }
        : undefined;
    case "alias": {
      const scripts = args.filter((a) => a.includes("=")).map((a) => a.slice(a.indexOf("=") + 1));
      return scripts.length ? { why: "it defines an alias", scripts, commands: [], unreadable: [] } : undefined;
    }
    default:
      return undefined;
  }
}
