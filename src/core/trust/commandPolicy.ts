import { minimatch } from "minimatch";
import { analyzeCommand, type SimpleCommand } from "./shellCommand";

/**
 * Allow/deny patterns for `execute`: globs over one command with its arguments (`npm test*`,
 * `git push*`, `rm -rf*`). They are matched against each command the shell would run, read by
 * a real parser (./shellCommand.ts): quotes and escapes removed, whitespace collapsed, commands
 * inside substitutions, groups, `sh -c` and `eval` included.
 *
 * Deny wins and fails safe: any command anywhere in the line, with or without its folder
 * (`/bin/rm` is `rm`), in any case, matching a deny pattern refuses the line. Allow fails
 * closed: it auto-runs only a line that is provably simple (plain commands joined by `&&`,
 * `||`, `;` or `|`, no substitutions, no redirects to files, no VAR=…, no wrappers or shells)
 * and whose every command matches an allow pattern. Anything else is asked.
 */
export interface CommandPatterns {
  allow?: readonly string[];
  deny?: readonly string[];
  /**
   * Set when every command must reach the person, whatever the policy, allow list or --yes say;
   * the text says why (the OS sandbox should run commands but cannot here).
   */
  alwaysAsk?: string;
}

export type CommandVerdict =
  /** `why` is set when the line was refused because deny patterns cannot check part of it. */
  | { verdict: "deny"; pattern: string; why?: string }
  | { verdict: "allow"; pattern: string }
  /** `why`: what kept an allow pattern from applying, for the person (empty when none matched). */
  | { verdict: "ask"; why?: string };

const MATCH_OPTIONS = { dot: true, nocomment: true, nonegate: true, noglobstar: false } as const;

function matches(command: string, pattern: string, nocase: boolean): boolean {
  // `*` must cross `/` in a command line, so match with `/` treated as plain text.
  const escapedCommand = command.replaceAll("/", "\u2215");
  const escapedPattern = pattern.trim().replace(/\s+/g, " ").replaceAll("/", "\u2215");
  return minimatch(escapedCommand, escapedPattern, { ...MATCH_OPTIONS, nocase });
}

export function checkCommand(command: string, patterns: CommandPatterns): CommandVerdict {
  const analysis = analyzeCommand(command);
  const whole = command.trim().replace(/\s+/g, " ");
  const denyCandidates = [whole, ...analysis.commands.flatMap((c) => [c.text, c.bareText, ...c.alternatives])];
  for (const pattern of patterns.deny ?? []) {
    // Case-insensitive: on macOS and Windows `/BIN/RM` is rm; denying too much is safe.
    if (denyCandidates.some((c) => matches(c, pattern, true))) return { verdict: "deny", pattern };
  }
  const deny = patterns.deny ?? [];
  if (deny.length > 0 && analysis.unreadable.length > 0) {
    return {
      verdict: "deny",
      pattern: deny[0]!,
      why: `it runs ${analysis.unreadable.join(" and ")}, which your deny patterns cannot be checked against`,
    };
  }
  const allow = patterns.allow ?? [];
  if (allow.length === 0) return { verdict: "ask" };
  const firstMatch = (c: SimpleCommand) => allow.find((p) => matches(c.text, p, false));
  const matched = analysis.commands.map(firstMatch);
  if (matched.some((m) => m === undefined) || analysis.commands.length === 0) return { verdict: "ask" };
  if (analysis.notSimple.length > 0)
    return { verdict: "ask", why: `An allow pattern matches, but ${analysis.notSimple.join("; ")}.` };
  return { verdict: "allow", pattern: matched[0]! };
}

/** Tools whose first argument (or two) names what they do: `git push`, `npm run build`. */
const SUBCOMMAND_TOOLS = new Set([
  "git",
  "npm",
  "pnpm",
  "yarn",
  "bun",
  "deno",
  "npx",
  "pnpx",
  "cargo",
  "go",
  "docker",
  "podman",
  "kubectl",
  "helm",
  "pip",
  "pip3",
  "uv",
  "poetry",
  "pipenv",
  "dotnet",
  "gradle",
  "./gradlew",
  "mvn",
  "./mvnw",
  "make",
  "just",
  "brew",
  "apt",
  "apt-get",
  "gh",
  "terraform",
  "composer",
  "bundle",
  "rake",
  "mix",
  "swift",
  "flutter",
  "dart",
  "rustup",
  "conda",
  "nx",
  "turbo",
  "lerna",
]);
const RUNS_A_NAMED_THING = new Set(["run", "run-script", "exec", "x", "dlx"]);

/** Programs that run a script named by their first argument (`node build.js`, `python3 -m pytest`). */
const INTERPRETERS = new Set([
  "node",
  "python",
  "python3",
  "ruby",
  "perl",
  "php",
  "tsx",
  "ts-node",
  "Rscript",
  "lua",
  "java",
]);

/**
 * The rule "Always allow" records for one command: program and subcommand (`npm test`, `ls`), or
 * an interpreter and its script (`node scripts/build.js`). Null when the command has no such
 * part to name: `npm` alone, `git -C sub push` (an option first), `node -e '…'` (inline code);
 * then no Always allow is offered, so a rule never covers more than the person saw.
 */
function ruleFor(argv: readonly string[]): string | null {
  const [program = "", first, second] = argv;
  if (INTERPRETERS.has(program)) {
    if (first === "-m" && second !== undefined && !second.startsWith("-")) return `${program} -m ${second}`;
    return first !== undefined && !first.startsWith("-") ? `${program} ${first}` : null;
  }
  if (!SUBCOMMAND_TOOLS.has(program)) return program;
  if (first === undefined || first.startsWith("-")) return null;
  if (program === "npx" || program === "pnpx") return `${program} ${first}`;
  if (RUNS_A_NAMED_THING.has(first))
    return second !== undefined && !second.startsWith("-") ? `${program} ${first} ${second}` : null;
  return `${program} ${first}`;
}

/**
 * What "Always allow" on this command would allow for the rest of the task: one rule per
 * command (`npm test`, `git status`), or null when the line is not provably simple or a command
 * in it has no program and subcommand to name (then the card offers no "Always allow": such a
 * line is approved one at a time).
 */
export function alwaysAllowRules(command: string): string[] | null {
  const analysis = analyzeCommand(command);
  if (analysis.notSimple.length > 0 || analysis.commands.length === 0) return null;
  const rules = analysis.commands.map((c) => ruleFor(c.argv));
  return rules.some((r) => r === null) ? null : [...new Set(rules as string[])];
}

/** Whether rules recorded by "Always allow" cover this line: simple, and every command under a rule. */
export function allowedByRules(command: string, rules: readonly string[]): boolean {
  if (rules.length === 0) return false;
  const analysis = analyzeCommand(command);
  if (analysis.notSimple.length > 0 || analysis.commands.length === 0) return false;
  return analysis.commands.every((c) => rules.some((rule) => c.text === rule || c.text.startsWith(`${rule} `)));
}
