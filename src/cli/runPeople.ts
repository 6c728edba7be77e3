import { approveAll, type ApprovalGate, type ApprovalPolicy } from "../core/approval";
import { SteeringInbox } from "../core/agent/steering";
import { openSandbox } from "../core/headless/headlessRun";
import { levelWhereSandbox, type ApprovalLevel } from "../core/trust/approvalLevels";
import { noOneToAsk, type QuestionAsker } from "../core/question";
import type { CliOptions } from "./runOptions";
import { StdinSteering } from "./stdinSteering";
import { TerminalApprovalGate, noOneAtTerminal } from "./terminalApprovalGate";
import { TerminalQuestionAsker } from "./terminalQuestions";

/**
 * Who answers for the run: at a terminal the person (approvals, questions, and a line typed while
 * the task works goes to the model at its next step); with --json or no terminal, no one.
 */
export function terminalPeople(opts: CliOptions, onInterrupt: () => void) {
  const interactive = process.stdin.isTTY === true && !opts.json;
  const inbox = new SteeringInbox();
  const steering = interactive ? new StdinSteering(process.stdin, process.stderr, inbox) : undefined;
  const terminal = { input: process.stdin, output: process.stderr, onInterrupt };
  const approvals = new TerminalApprovalGate(terminal);
  const asker: ApprovalGate = interactive
    ? { request: (r, signal) => steering!.whileAsking(() => approvals.request(r, signal)) }
    : noOneAtTerminal;
  // --yes is for unattended runs: questions are not asked then either.
  const terminalQuestions = new TerminalQuestionAsker(terminal);
  const questions: QuestionAsker =
    interactive && !opts.yes
      ? { ask: (q, signal) => steering!.whileAsking(() => terminalQuestions.ask(q, signal)) }
      : noOneToAsk;
  // --yes approves what the policy asks about, but never what must reach the person.
  const gate: ApprovalGate = opts.yes
    ? { request: (r, signal) => (r.mustAsk ? asker.request(r, signal) : approveAll.request(r, signal)) }
    : asker;
  // Where hooks and MCP servers may prompt.
  const promptIo = interactive ? { input: process.stdin, output: process.stderr, onInterrupt } : undefined;
  return { interactive, inbox, steering, gate, questions, promptIo };
}

/**
 * The sandbox (--sandbox), or null (said once) when it cannot run here, and what runs unasked:
 * with --yes everything but commands the sandbox was asked for and cannot hold; and the permission
 * level (--approvals) where it can run.
 */
export function runTrust(opts: CliOptions) {
  const sandbox = opts.sandbox
    ? openSandbox(opts.allowDomains, (problem) =>
        process.stderr.write(
          `fathom: ${problem} Until then every command is asked (or pass --no-sandbox to run commands with your full rights).\n`,
        ),
      )
    : undefined;
  // Without the sandbox they asked for, commands are never run unasked.
  const executeAuto = opts.yes && (sandbox !== null || !opts.sandbox);
  const policy: ApprovalPolicy = opts.yes
    ? { read: "auto", edit: "auto", execute: executeAuto ? "auto" : "ask", other: "auto" }
    : {};
  // --approvals autopilot only where the sandbox holds the commands: else Edits auto, said once.
  const state = !opts.sandbox ? "off" : sandbox === null ? "unavailable" : "on";
  const cli = (why: string | undefined) => why?.replace("fathom.sandbox.enabled", "--no-sandbox");
  const where = levelWhereSandbox(opts.approvals, state);
  if (where.refused) process.stderr.write(`fathom: ${cli(where.refused)}\n`);
  const level: ApprovalLevel = where.level;
  return { sandbox, policy, level, autopilotRefused: cli(levelWhereSandbox("autopilot", state).refused) };
}
