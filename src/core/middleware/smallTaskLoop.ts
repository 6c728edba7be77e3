/**
 * The task loop for small models: read, write, test, fix — with the harness doing the steps a
 * small model fumbles. Measured with Qwen2.5-Coder-1.5B (docs/benchmarks.md, issue 39): it writes a
 * correct file when it has the files in front of it and may answer in its own way (the path, then
 * the file in a fenced block), and it fails when it has to find files and call tools to write
 * them. So, in the small profile, when the person's request names the test command (`pytest -q`
 * in backticks) and the agent can write and run commands:
 * - the workspace files the request names are read and attached to it once;
 * - each turn asks for the whole new file as a fenced code block; a block for a file (codeBlocks.ts)
 *   becomes an ordinary write_file call (approved, checkpointed, guarded as any), followed by the
 *   named test command (approved as any command);
 * - the test run comes back short (testReport.ts): counts, and per failure the test, the failing
 *   line and the message;
 * - once the tests pass, or after MAX_TEST_RUNS failing runs, the model is asked only for its answer.
 * Calls the model writes as JSON in its text (Qwen's habit) still run; a plain answer ends the
 * run as usual. Nothing here knows a language, a test runner or a task beyond what the person wrote.
 */
import type { BackendProtocol } from "../backends/protocol";
import type { ChatMessage, ToolCall } from "../model/types";
import { extractTextToolCalls } from "../model/toolCalls/textToolCalls";
import type { AgentEvent } from "../run/events";
import type { RunState } from "../run/runState";
import type { SecretFileMatcher } from "../trust/secretFiles";
import { blockTarget, fencedBlocks, type SeenFile } from "../tools/codeBlocks";
import { namedTestCommand } from "../tools/testCommands";
import { testReport } from "../tools/testReport";
import type { Tool } from "../tools/tool";
import type { Middleware, ModelCall, ModelTurn, RunContext } from "./types";

/** Asking again (a file already tested or refused, an answer while the tests fail): how often in a task, how much variety. */
const MAX_RETRIES = 6;
const retryTemperature = (retry: number) => Math.min(1.2, 0.6 + 0.2 * retry);
/** Failing test runs before the model is asked only to answer (say what is left). */
export const MAX_TEST_RUNS = 5;
const MAX_NAMED_FILES = 6;
const MAX_ATTACHED_CHARS = 16_000;
const ATTACHED_MARK = "\n\n<named_files>";
const DO_NOT_CHANGE =
  /\b(?:do not|don't|never|must not|mustn't|should not|shouldn't)\s+(?:change|modify|edit|touch|alter|rewrite)\b|\bleave\b.{0,60}\b(?:unchanged|untouched|as (?:it is|they are))\b/i;
/** A path-like word in the person's request: "leap.py", ".docs/instructions.md", "src/app.ts". */
const NAMED_PATH = /(?<=^|[\s(`'"])\.{0,2}\/?(?:[\w.-]+\/)*[\w.-]+\.[A-Za-z0-9]{1,8}(?=$|[\s)`'",;:!?]|\.(?:\s|$))/g;

interface LoopState {
  command: string;
  /** Files the model has in front of it (attached, read or written), by workspace path. */
  seen: Map<string, string>;
  /** Every file content written so far, as "path\ncontent": the same again fails the same way. */
  tested: Set<string>;
  /** Files the person asked not to change: a block for one is not written. */
  keep: Set<string>;
  /** The last file written, and whether a write of the current turn failed (then its test is not run). */
  lastWrite?: string;
  writeFailed: boolean;
  testRuns: number;
  passed: boolean;
  /** The model kept writing what was already refused or tested: no more writes are asked for. */
  stuck: boolean;
  /** Turns asked again so far (MAX_RETRIES in a task). */
  retries: number;
}

export function smallTaskLoopMiddleware(options: {
  backend: BackendProtocol;
  tools: () => ReadonlyMap<string, Tool>;
  isSecret?: SecretFileMatcher;
}): Middleware {
  const loops = new WeakMap<RunState, LoopState | null>();
  return {
    name: "smallTaskLoop",
    async beforeModel(ctx) {
      if (loops.has(ctx.state)) return;
      const request = ctx.state.messages.findLast((m) => m.role === "user");
      const command = request && applies(ctx, options.tools()) ? namedTestCommand(request.content) : undefined;
      if (!request || !command) {
        loops.set(ctx.state, null);
        return;
      }
      const loop: LoopState = {
        command,
        seen: new Map(),
        tested: new Set(),
        keep: filesNotToChange(request.content),
        writeFailed: false,
        testRuns: 0,
        passed: false,
        stuck: false,
        retries: 0,
      };
      loops.set(ctx.state, loop);
      if (!request.content.includes(ATTACHED_MARK)) {
        const attached = await attachNamedFiles(request.content, options.backend, options.isSecret, loop.seen);
        if (attached) {
          const at = ctx.state.messages.lastIndexOf(request);
          ctx.state.messages[at] = { ...request, content: `${request.content}${attached}` };
        }
      }
    },
    async wrapModelCall(call, ctx, next) {
      const loop = loops.get(ctx.state);
      if (!loop) return next(call);
      const done = loop.passed || loop.stuck || loop.testRuns >= MAX_TEST_RUNS || call.answerOnly === true;
      const messages = asText(call.messages, loop, done);
      const answer = () => {
        const note = loop.passed
          ? `The tests pass (\`${loop.command}\`). Answer the person in one or two sentences: what you changed.`
          : `The tests still fail (${loop.testRuns} run${loop.testRuns === 1 ? "" : "s"}). Answer the person briefly: what you changed and what still fails.`;
        return next({
          ...call,
          tools: [],
          messages: asText(call.messages, loop, true),
          system: `${call.system}\n\n${note}`,
        });
      };
      if (done) return answer();
      const system = `${call.system}\n\n${writeFormat(loop.command)}`;
      let nudge: string | undefined;
      for (let attempt = 0; ; attempt++) {
        // Greedy decoding gives the same file for the same failures, and a model shown the tests
        // may rewrite them: either is asked for again, said why, with more variety each time, up
        // to MAX_RETRIES times in the task.
        const turn = await next({
          ...call,
          tools: [],
          messages: nudge ? [...messages, { role: "user", content: nudge }] : messages,
          system,
          ...(attempt > 0 ? { sampling: { temperature: retryTemperature(loop.retries) } } : {}),
          // Small models go on after the file (the test run they imagine, the file again): the
          // first complete block for a file is the answer, and its time is all the turn costs.
          stopWhen: (text) => (text.endsWith("`") || text.endsWith("\n") ? hasFileBlock(text, loop) : false),
        });
        const read = withCalls(turn, call, loop);
        nudge = retryReason(read, loop);
        if (!nudge) {
          for (const event of read.events) ctx.emit(event);
          return read.turn;
        }
        if (loop.retries >= MAX_RETRIES) {
          // Asked again too often: the file the tests failed on (running them again would say the
          // same), a file the person asked not to change, or no file. Stop here.
          ctx.recordUsage(turn.usage);
          ctx.emit({ type: "text_replaced", text: "" });
          ctx.emit({
            type: "warning",
            code: "repetition",
            message: `${nudge} The model was asked ${MAX_RETRIES} times already, so it is asked for its answer.`,
          });
          loop.stuck = true;
          return answer();
        }
        loop.retries++;
        ctx.recordUsage(turn.usage);
        ctx.emit({ type: "text_replaced", text: "" });
        ctx.emit({ type: "warning", code: "repetition", message: `${nudge} (Asked the model again.)` });
      }
    },
    async wrapToolCall(call, ctx, next) {
      const loop = loops.get(ctx.state);
      if (!loop) return next(call);
      if (call.name === "execute" && String(call.args.command ?? "").trim() === loop.command) {
        if (loop.writeFailed) {
          loop.writeFailed = false;
          return { content: "Not run: the file was not written (see the result above).", isError: true };
        }
        const result = await next(call);
        const exitCode = result.details?.exitCode;
        if (typeof exitCode !== "number" || result.details?.timedOut || result.details?.stillRunning) return result;
        const report = testReport(loop.command, result.content, exitCode);
        loop.testRuns++;
        loop.passed = report.passed;
        return { ...result, content: report.text };
      }
      const result = await next(call);
      const path = typeof call.args.file_path === "string" ? call.args.file_path : undefined;
      if (call.name === "write_file" && path) {
        loop.writeFailed = result.isError === true;
        if (!result.isError) {
          loop.lastWrite = path;
          loop.passed = false;
          if (typeof call.args.content === "string") {
            loop.seen.set(path, call.args.content);
            loop.tested.add(`${path}\n${call.args.content}`);
          }
        }
      } else if (call.name === "read_file" && path && !result.isError) {
        const raw = await options.backend.readText(path, MAX_ATTACHED_CHARS);
        if (raw.text !== undefined) loop.seen.set(path, raw.text);
      }
      return result;
    },
  };
}

function applies(ctx: RunContext, tools: ReadonlyMap<string, Tool>): boolean {
  return (
    ctx.profile === "small" &&
    ctx.state.mode !== "plan" &&
    ctx.subagentType === undefined &&
    tools.has("write_file") &&
    tools.has("execute")
  );
}

/** Whether `text` holds a complete fenced block for a file. */
function hasFileBlock(text: string, loop: LoopState): boolean {
  if (!text.includes("```") && !text.includes("~~~")) return false;
  const seen = [...loop.seen].map(([path, content]): SeenFile => ({ path, content }));
  return fencedBlocks(text).some((block) => {
    // A block for a file the person asked not to change ends the answer too: it is refused at once.
    return blockTarget(text, block, seen) !== undefined;
  });
}

/** Why the turn's writes are not made and the model is asked again, or undefined to go on. */
function retryReason(read: ReadTurn, loop: LoopState): string | undefined {
  const target = loop.lastWrite ?? "the file to change";
  if (read.kept.length === 0 && read.refused.length > 0)
    return `The person asked not to change ${read.refused.join(", ")}. Write the whole new content of ${target} instead: its path, then the file.`;
  const calls = read.turn.message.toolCalls ?? [];
  // An answer while the tests fail (small models also write a made-up "passed" result): not the end.
  if (calls.length === 0 && loop.testRuns > 0)
    return `The tests still fail. Reply with the path of ${target} on one line, then its whole new content in a fenced code block.`;
  const writes = calls.filter((c) => c.name === "write_file" && fromBlock(c));
  const same = writes.every((c) => {
    const args = parsed(c.arguments) as { file_path?: string; content?: string };
    return loop.tested.has(`${args.file_path}\n${args.content}`);
  });
  if (writes.length > 0 && same)
    return `That is the same ${target} as before, and the tests failed on it. Read the failures again and change the code so that they pass. Reply with the path and the whole new file.`;
  return undefined;
}

/**
 * The files the person's request asks not to change: those named in a sentence that says so
 * ("The tests are in leap_test.py; do not change them.", "Leave config.yml as it is.").
 */
export function filesNotToChange(request: string): Set<string> {
  const kept = new Set<string>();
  for (const sentence of request.split(/(?<=[.!?])\s+|\n+/)) {
    if (!DO_NOT_CHANGE.test(sentence)) continue;
    for (const m of sentence.matchAll(NAMED_PATH)) kept.add(virtualPath(m[0]));
  }
  return kept;
}

function writeFormat(command: string): string {
  return [
    "# Changing files",
    "To change a file, reply with only its path on one line, then its whole new content in one fenced code block: the whole file, not a part of it, and nothing after the block.",
    `After each change the tests run (\`${command}\`) and their result comes back to you.`,
  ].join("\n");
}

/** The files the request names that exist (and are not secret), read and attached; records them as seen. */
async function attachNamedFiles(
  text: string,
  backend: BackendProtocol,
  isSecret: SecretFileMatcher | undefined,
  seen: Map<string, string>,
): Promise<string | undefined> {
  const paths = [...new Set([...text.matchAll(NAMED_PATH)].map((m) => virtualPath(m[0])))];
  const blocks: string[] = [];
  let budget = MAX_ATTACHED_CHARS;
  for (const path of paths.slice(0, MAX_NAMED_FILES)) {
    if (isSecret?.(path)) continue;
    // read() makes the file count as read (a write to it is then allowed); the model gets the raw
    // text, without read_file's line numbers, which a small model would copy into its new file.
    const read = await backend.read(path);
    if (read.content === undefined) continue;
    const raw = await backend.readText(path, budget + 1);
    if (raw.text === undefined || raw.text.length > budget) continue;
    budget -= raw.text.length;
    seen.set(path, raw.text);
    blocks.push(`<file path="${path}">\n${raw.text.replace(/\n$/, "")}\n</file>`);
  }
  return blocks.length ? `${ATTACHED_MARK}\n${blocks.join("\n")}\n</named_files>` : undefined;
}

/**
 * The conversation as plain turns: the model's own answers as it wrote them (a write it made as a
 * code block stays a code block), tool results as one message of "Result of" blocks, ending with
 * what to do next.
 */
function asText(messages: readonly ChatMessage[], loop: LoopState, done: boolean): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (const msg of messages) {
    if (msg.role === "assistant") {
      const written = (msg.toolCalls ?? []).filter((c) => !fromBlock(c));
      const calls = written.map((c) => JSON.stringify({ name: c.name, arguments: parsed(c.arguments) }));
      out.push({ role: "assistant", content: [msg.content, ...calls].filter((t) => t.trim()).join("\n") });
    } else if (msg.role === "tool") {
      const block = `Result of ${msg.toolName}${msg.isError ? " (failed)" : ""}:\n${msg.content}`;
      const last = out.at(-1);
      if (last?.role === "user" && last.content.startsWith("Result of "))
        out[out.length - 1] = { role: "user", content: `${last.content}\n\n${block}` };
      else out.push({ role: "user", content: block });
    } else out.push(msg);
  }
  const last = out.at(-1);
  if (!done && last?.role === "user" && last.content.startsWith("Result of ") && loop.testRuns > 0 && loop.lastWrite)
    out[out.length - 1] = {
      role: "user",
      content: `${last.content}\n\nThe tests fail. Write the whole new content of ${loop.lastWrite} that makes them pass.`,
    };
  return out;
}

const virtualPath = (named: string) => `/${named.replace(/^\.?\//, "")}`;

const BLOCK_CALL = "call_block_";
const fromBlock = (call: ToolCall) => call.id.startsWith(BLOCK_CALL);

/** The turn with its code blocks for files read as write_file calls (then the tests), or JSON calls in its text. */
interface ReadTurn {
  turn: ModelTurn;
  /** What to tell the person and the log if this turn is the one kept. */
  events: AgentEvent[];
  /** Files the turn's blocks were read as writes to, and those refused (the person asked not to change them). */
  kept: string[];
  refused: string[];
}

function withCalls(turn: ModelTurn, call: ModelCall, loop: LoopState): ReadTurn {
  const events: AgentEvent[] = [];
  const refused: string[] = [];
  const unchanged = { turn, events, kept: [], refused };
  // A turn cut short (the token limit, or repetition after the file: a model that goes on to
  // imagine the test output) still holds the complete blocks it wrote first.
  if (turn.message.toolCalls?.length || turn.stopReason === "steered") return unchanged;
  const text = turn.message.content;
  const seen = [...loop.seen].map(([path, content]): SeenFile => ({ path, content }));
  const writes = new Map<string, string>();
  for (const block of fencedBlocks(text)) {
    const target = blockTarget(text, block, seen);
    if (target && loop.keep.has(target)) refused.push(target);
    else if (target) writes.set(target, block.body);
  }
  const tag = Math.random().toString(36).slice(2, 8);
  let calls: ToolCall[];
  if (writes.size > 0) {
    calls = [...writes].map(([file_path, content], i) => ({
      id: `${BLOCK_CALL}${tag}_${i}`,
      name: "write_file",
      arguments: JSON.stringify({ file_path, content }),
    }));
    calls.push({ id: `${BLOCK_CALL}${tag}_t`, name: "execute", arguments: JSON.stringify({ command: loop.command }) });
    events.push({
      type: "warning",
      code: "text_tool_calls",
      message: `Read the code block${writes.size > 1 ? "s" : ""} as a write to ${[...writes.keys()].join(", ")}, then ran \`${loop.command}\`.`,
    });
  } else {
    const found = extractTextToolCalls(text, new Set(call.tools.map((t) => t.name)));
    if (!found) return unchanged;
    calls = found.calls;
    events.push({ type: "text_replaced", text: found.text });
    events.push({
      type: "warning",
      code: "text_tool_calls",
      message: `Ran ${calls.map((c) => c.name).join(", ")}, written as text by the model.`,
    });
  }
  for (const c of calls) {
    events.push({ type: "tool_call_started", toolCallId: c.id, toolName: c.name });
    events.push({ type: "tool_call_arguments", toolCallId: c.id, delta: c.arguments });
  }
  const content =
    writes.size > 0 ? text : (extractTextToolCalls(text, new Set(call.tools.map((t) => t.name)))?.text ?? text);
  return {
    turn: { ...turn, message: { ...turn.message, content, toolCalls: calls }, stopReason: "tool_use" },
    events,
    kept: [...writes.keys()],
    refused,
  };
}

function parsed(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch {
    return raw;
  }
}
