import type { Command, SyntaxNode, Word } from "unbash";
import { shellLib } from "../vendor/libraries";
import { codeInArguments } from "./codeInArguments";

/**
 * Reads a command line the way the shell will, so allow and deny patterns judge what really
 * runs, not how it is spelled. The parse is unbash's (a typed bash parser built for classifying
 * commands; no dependencies, small in the bundle). Every command found anywhere is reported,
 * including inside `$(…)`, backticks, `<(…)`, groups, subshells, `bash -c '…'` and `eval`, and
 * whether the whole line is provably simple: plain commands joined by `&&`, `||`, `;` or `|`,
 * with nothing that could run more than what the words say.
 */
export interface SimpleCommand {
  /** Program and arguments after quote removal, e.g. `["npm", "test"]`. */
  argv: string[];
  /** `argv` joined by single spaces: what allow patterns match. */
  text: string;
  /** The same with the program's folder dropped (`/bin/rm` → `rm`): what deny patterns also match. */
  bareText: string;
  /**
   * The same with the program's leading options left out (`git -C sub push` → `git push`), for
   * deny patterns: which options take a value differs per program, so each possible start of
   * the subcommand is listed.
   */
  alternatives: string[];
}

export interface CommandAnalysis {
  /** Every command that may run, nested ones included, in source order. */
  commands: SimpleCommand[];
  /** Why the line is not a plain list of simple commands; empty when it is. */
  notSimple: string[];
  /**
   * Code that runs but cannot be read here: a script piped into a shell, `eval` of a variable.
   * Deny patterns cannot vouch for it, so a line with any is refused when deny patterns exist.
   */
  unreadable: string[];
}

/** Programs that run their arguments as another command. */
const WRAPPERS = new Set([
  "env",
  "command",
  "builtin",
  "exec",
  "nice",
  "nohup",
  "time",
  "sudo",
  "doas",
  "xargs",
  "parallel",
  "timeout",
  "stdbuf",
  "ionice",
  "setsid",
  "chrt",
  "taskset",
  "watch",
  "strace",
  "ltrace",
  "unbuffer",
  "caffeinate",
  "chroot",
  "su",
  "runuser",
  "flock",
  "busybox",
  "script",
]);
/** Programs that read a script from an argument (`-c`), a file or stdin. */
const SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "mksh", "fish", "csh", "tcsh", "ash", "busybox"]);
/** Bounds the work on a hostile line (`bash -c "bash -c …"` nested a thousand deep). */
const MAX_DEPTH = 8;

const basename = (program: string) => program.slice(program.lastIndexOf("/") + 1);

export function analyzeCommand(line: string): CommandAnalysis {
  const out: CommandAnalysis = { commands: [], notSimple: [], unreadable: [] };
  visitScript(line, out, 0);
  out.notSimple = [...new Set(out.notSimple)];
  out.unreadable = [...new Set(out.unreadable)];
  return out;
}

function visitScript(source: string, out: CommandAnalysis, depth: number): void {
  if (depth > MAX_DEPTH) {
    out.notSimple.push("nested too deep to check");
    out.unreadable.push("commands nested too deep to check");
    return;
  }
  const script = shellLib().parse(source);
  if (script.errors?.length) out.notSimple.push(`it does not parse (${script.errors[0]!.message})`);
  visitNode(script, out, depth, true);
}

/** `top`: still on the plain list level (script, statements, and-or lists, pipelines). */
function visitNode(node: SyntaxNode, out: CommandAnalysis, depth: number, top: boolean): void {
  switch (node.type) {
    case "Script":
    case "AndOr":
      shellLib().forEachChild(node, (child) => visitNode(child, out, depth, top));
      return;
    case "Statement":
      if (node.background) out.notSimple.push("it runs something in the background (&)");
      shellLib().forEachChild(node, (child) => visitNode(child, out, depth, top));
      return;
    case "Pipeline": {
      if (node.prefixes.length > 0) out.notSimple.push("it has a pipeline prefix (time or !)");
      node.commands.forEach((cmd, i) => {
        const name = cmd.type === "Command" && cmd.name ? basename(cmd.name.value) : "";
        if (i > 0 && (SHELLS.has(name) || name === "eval" || name === "source" || name === ".")) {
          out.notSimple.push(`it pipes into ${name}`);
          out.unreadable.push(`a script piped into ${name}`);
        }
        visitNode(cmd, out, depth, top);
      });
      return;
    }
    case "Command":
      visitCommand(node, out, depth, top);
      return;
    case "CommandExpansion":
      out.notSimple.push("it has a command substitution ($(…) or backticks)");
      shellLib().forEachChild(node, (child) => visitNode(child, out, depth + 1, false));
      return;
    case "ProcessSubstitution":
      out.notSimple.push("it has a process substitution (<(…) or >(…))");
      shellLib().forEachChild(node, (child) => visitNode(child, out, depth + 1, false));
      return;
    default:
      // Groups, subshells, loops, conditionals, functions, coproc: not a plain list, but every
      // command inside still counts for deny.
      if (top) out.notSimple.push(`it has a ${describeNode(node.type)}`);
      shellLib().forEachChild(node, (child) => visitNode(child, out, depth, false));
  }
}

function describeNode(type: string): string {
  switch (type) {
    case "Subshell":
      return "subshell ( … )";
    case "BraceGroup":
      return "group { …; }";
    case "Function":
      return "function definition";
    default:
      return `${type.toLowerCase()} construct`;
  }
}

function visitCommand(cmd: Command, out: CommandAnalysis, depth: number, top: boolean): void {
  // Substitutions anywhere in the words or redirects run first, whatever the program is.
  for (const part of [...cmd.prefix, ...cmd.suffix]) scanWords(part, out, depth);
  if (cmd.name) scanWords(cmd.name, out, depth);
  if (!top) out.notSimple.push("a command is nested inside another construct");
  if (cmd.prefix.some((p) => p.type === "Assignment")) out.notSimple.push("it sets variables for the command (VAR=…)");
  for (const redirect of cmd.redirects) {
    const why = unsafeRedirect(redirect);
    if (why) out.notSimple.push(why);
  }
  if (!cmd.name) return; // assignments or redirects alone
  if (hasExpansion(cmd.name)) {
    // `r${X}m`, `${RM:-rm}`: what runs is decided when the line runs, so no pattern can check it.
    out.notSimple.push("the program name comes from an expansion");
    out.unreadable.push(`a program named by an expansion (${cmd.name.text})`);
  }
  const argv = [
    cmd.name.value,
    ...cmd.args.map((a) =>
      a.type === "Word" ? a.value : a.value.type === "Word" ? `${a.name}=${a.value.value}` : a.text,
    ),
  ];
  addCommand(argv, out, depth, stdinOf(cmd));
}

/** What a command reads as its standard input when the line itself gives it: a here-document or here-string. */
function stdinOf(cmd: Command): string | undefined {
  for (const r of cmd.redirects) {
    if (r.type === "HereDoc") return r.body.text;
    if (r.type === "HereString") return r.target?.value;
  }
  return undefined;
}

/** Every way of reading `argv` with the program's leading options left out (see SimpleCommand). */
function withoutLeadingOptions(program: string, args: string[]): string[] {
  const out: string[] = [];
  let afterOption = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg.startsWith("-")) {
      afterOption = !arg.includes("=");
      continue;
    }
    if (i > 0) out.push([program, ...args.slice(i)].join(" "));
    // A word after an option may be that option's value: the next word may be the subcommand.
    if (!afterOption) break;
    afterOption = false;
  }
  return out;
}

function addCommand(argv: string[], out: CommandAnalysis, depth: number, stdin?: string): void {
  const program = basename(argv[0] ?? "");
  const text = argv.join(" ");
  out.commands.push({
    argv,
    text,
    bareText: [program, ...argv.slice(1)].join(" "),
    alternatives: withoutLeadingOptions(program, argv.slice(1)),
  });
  if (WRAPPERS.has(program)) {
    out.notSimple.push(`it runs another command through ${program}`);
    visitWrapped(program, argv.slice(1), out, depth + 1);
    return;
  }
  if (program === "eval") {
    out.notSimple.push("it uses eval");
    visitScript(argv.slice(1).join(" "), out, depth + 1);
    return;
  }
  if (depth > MAX_DEPTH) return;
  if (SHELLS.has(program) || program === "source" || program === ".") {
    out.notSimple.push(`it starts a shell (${program})`);
    const script = shellScriptArg(argv.slice(1)) ?? (SHELLS.has(program) ? stdin : undefined);
    if (script !== undefined) visitScript(script, out, depth + 1);
    return;
  }
  const hidden = codeInArguments(program, argv.slice(1));
  if (hidden) {
    out.notSimple.push(hidden.why);
    for (const script of hidden.scripts) visitScript(script, out, depth + 1);
    for (const command of hidden.commands) addCommand(command, out, depth + 1);
    out.unreadable.push(...hidden.unreadable);
  }
}

/** Wrappers whose option takes a whole command line as one string. */
const STRING_COMMAND_OPTIONS: Record<string, RegExp> = {
  su: /^-c$|^--command/,
  runuser: /^-c$|^--command/,
  flock: /^-c$/,
  env: /^-S$|^--split-string/,
  script: /^-c$|^--command/,
};
/** Wrapper arguments checked as possible commands (a hostile line may have thousands). */
const MAX_WRAPPED_ARGS = 16;

/**
 * What a wrapper runs. Which of its arguments are its own options' values depends on the
 * wrapper (`sudo -u root cmd`, `nice -n 5 cmd`), so every argument that is not an option is
 * taken as a possible start of the command: deny sees `/bin/rm -rf /` in `sudo -u root /bin/rm -rf /`.
 */
function visitWrapped(wrapper: string, args: string[], out: CommandAnalysis, depth: number): void {
  if (wrapper === "watch") {
    // watch runs its arguments with sh -c.
    visitScript(args.filter((a) => !a.startsWith("-")).join(" "), out, depth);
    return;
  }
  const stringOption = STRING_COMMAND_OPTIONS[wrapper];
  for (let i = 0; i < Math.min(args.length, MAX_WRAPPED_ARGS); i++) {
    const arg = args[i]!;
    if (stringOption?.test(arg) && args[i + 1] !== undefined) visitScript(args[i + 1]!, out, depth);
    if (arg.startsWith("-") || (wrapper === "env" && /^[A-Za-z_][A-Za-z0-9_]*=/.test(arg))) continue;
    addCommand(args.slice(i), out, depth);
  }
  if (args.length > MAX_WRAPPED_ARGS) out.unreadable.push(`${wrapper} with more arguments than can be checked`);
  // `… | xargs sh`: the shell runs whatever the input names.
  if (
    (wrapper === "xargs" || wrapper === "parallel") &&
    args.some((a, i) => SHELLS.has(basename(a)) && shellScriptArg(args.slice(i + 1)) === undefined)
  ) {
    out.unreadable.push(`a shell script fed by ${wrapper}`);
  }
}

/** The script of `sh -c '…'` (also `-lc`, `-ec`, `-o pipefail -c`). */
function shellScriptArg(args: string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (/^-[a-zA-Z]*c[a-zA-Z]*$/.test(arg)) return args[i + 1];
  }
  return undefined;
}

/** Finds substitutions inside a word, an assignment's value or a redirect's target. */
function scanWords(node: SyntaxNode, out: CommandAnalysis, depth: number): void {
  if (node.type === "CommandExpansion" || node.type === "ProcessSubstitution") {
    visitNode(node, out, depth, false);
    return;
  }
  // The parser keeps `$(( … ))` as arithmetic; a substitution inside it still runs.
  if (node.type === "ArithmeticExpansion" && /\$\(|`/.test(node.text)) {
    out.notSimple.push("it has a command substitution inside arithmetic");
    visitScript(node.text.replace(/^\$\(\(/, "").replace(/\)\)$/, ""), out, depth + 1);
    return;
  }
  shellLib().forEachChild(node, (child) => scanWords(child, out, depth));
}

function hasExpansion(word: Word): boolean {
  return (word.parts ?? []).some(
    (p) => p.type !== "Literal" && p.type !== "SingleQuoted" && !(p.type === "DoubleQuoted" && !/[$`]/.test(p.text)),
  );
}

/** Redirects that only duplicate descriptors or use /dev/null are harmless; files are not. */
function unsafeRedirect(redirect: Command["redirects"][number]): string | undefined {
  if (redirect.type !== "Redirect") return "it feeds a here-document or here-string to the command";
  const target = redirect.target?.value ?? "";
  if ((redirect.operator === ">&" || redirect.operator === "<&") && /^(\d+|-)$/.test(target)) return undefined;
  if (target === "/dev/null") return undefined;
  return `it redirects ${redirect.operator === "<" ? "input from" : "output to"} a file (${redirect.operator} ${target})`;
}

/** `text` as one POSIX shell word (single-quoted). */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}
