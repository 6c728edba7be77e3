import { createInterface } from "node:readline/promises";
import { createTwoFilesPatch } from "diff";
import { rejectAll, type ApprovalDecision, type ApprovalGate, type ApprovalRequest } from "../core/approval";
import { visibleText } from "./visibleText";

export interface TerminalStreams {
  input: NodeJS.ReadableStream & { isTTY?: boolean };
  output: NodeJS.WritableStream & { isTTY?: boolean };
  /** Called on Ctrl+C while a question is open (readline swallows the signal). */
  onInterrupt: () => void;
}

const MAX_DIFF_LINES = 200;

/**
 * Asks on the terminal before writes and commands: shows the diff of an edit (or the command),
 * then y / n (with an optional reason for the model). One question at a time.
 */
export class TerminalApprovalGate implements ApprovalGate {
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly io: TerminalStreams) {}

  request(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> {
    const answer = this.queue.then(() => this.ask(request, signal));
    this.queue = answer.catch(() => undefined);
    return answer;
  }

  private async ask(request: ApprovalRequest, signal: AbortSignal): Promise<ApprovalDecision> {
    if (signal.aborted) return { type: "reject", reason: "The task was cancelled." };
    const { output } = this.io;
    output.write(`\n${describe(request, output.isTTY === true)}\n`);
    const rl = createInterface({ input: this.io.input, output, terminal: this.io.input.isTTY === true });
    rl.on("SIGINT", () => this.io.onInterrupt());
    try {
      for (;;) {
        const reply = (await rl.question("Approve? [y]es / [n]o: ", { signal })).trim().toLowerCase();
        if (reply === "y" || reply === "yes") return { type: "approve" };
        if (reply === "n" || reply === "no") {
          const reason = (await rl.question("Reason for the agent (optional): ", { signal })).trim();
          return reason ? { type: "reject", reason } : { type: "reject" };
        }
        output.write("Please answer y or n.\n");
      }
    } catch {
      return { type: "reject", reason: "The task was cancelled." };
    } finally {
      rl.close();
    }
  }
}

function describe(request: ApprovalRequest, color: boolean): string {
  const who = request.subagentType ? ` (subagent ${request.subagentType})` : "";
  if (request.proposal) {
    const { path, before, after } = request.proposal;
    const verb = before === null ? "create" : "change";
    const patch = createTwoFilesPatch(path, path, before ?? "", after, undefined, undefined, { context: 3 })
      .split("\n")
      .filter((l) => !l.startsWith("===") && !l.startsWith("Index:"));
    const shown =
      patch.length > MAX_DIFF_LINES
        ? [...patch.slice(0, MAX_DIFF_LINES), `… ${patch.length - MAX_DIFF_LINES} more lines`]
        : patch;
    // Each diff line shown with its invisible characters marked (the line breaks are the diff's own).
    const body = shown
      .map((line) => visibleText(line))
      .map((line) => (color ? paint(line) : line))
      .join("\n");
    return `${request.toolName}${who} wants to ${verb} ${visibleText(path)}:\n${body}`;
  }
  const why = request.reason ? `\nAsked because: ${request.reason}` : "";
  if (request.command !== undefined)
    return `${request.toolName}${who} wants to run:\n  $ ${visibleText(request.command, "    ")}${why}`;
  // JSON escapes control characters but not bidirectional or zero-width ones; its own line breaks stay.
  const args = JSON.stringify(request.args, null, 2)
    .split("\n")
    .map((line) => visibleText(line))
    .join("\n");
  return `${request.toolName}${who} wants to run with ${args}${why}`;
}

function paint(line: string): string {
  if (line.startsWith("+") && !line.startsWith("+++")) return `\x1b[32m${line}\x1b[0m`;
  if (line.startsWith("-") && !line.startsWith("---")) return `\x1b[31m${line}\x1b[0m`;
  if (line.startsWith("@@")) return `\x1b[36m${line}\x1b[0m`;
  return line;
}

const NO_TTY_OUTSIDE_SANDBOX =
  "Running a command outside the OS sandbox needs the person's yes at a terminal, and no one is there, so it was not run. Do it inside the sandbox (when it runs here), or report what you need.";

const NO_TTY_MEMORY =
  "No one is at a terminal to approve a write to memory, so it was not written. The person can rerun fathom with --allow-memory-writes, or at a terminal.";

const NO_TTY_WEB =
  "No one is at a terminal to allow this domain, so the page was not fetched. The person can allow it with fathom run --allow-domain DOMAIN.";

const NO_TTY_REASON =
  "No one is at a terminal to approve this, so it was not run. The person can rerun fathom with --yes to allow writes and commands.";

/** The gate when no one is at a terminal (or --json): every asked call refused, telling the model what the person could do instead. */
export const noOneAtTerminal: ApprovalGate = {
  request: (r, signal) =>
    (r.memory
      ? rejectAll(NO_TTY_MEMORY)
      : r.mustAsk
        ? rejectAll(r.toolName === "web_fetch" ? NO_TTY_WEB : NO_TTY_OUTSIDE_SANDBOX)
        : rejectAll(NO_TTY_REASON)
    ).request(r, signal),
};
