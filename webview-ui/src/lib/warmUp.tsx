import { flushSync } from "react-dom";
import { createRoot, type Root } from "react-dom/client";
import { HostToWebviewChatSchema, parseMessage, type TranscriptItem } from "../../../src/protocol";
import { Transcript } from "../components/Transcript";
import { TranscriptItemView } from "../components/TranscriptItemView";
import { HIGHLIGHTED_LANGUAGES, highlight } from "./highlight";
import { markdownBlocks, renderBlock } from "./markdown";

/**
 * The first answer of a window pays for first uses: the host messages' schemas, marked's rules,
 * DOMPurify's document, highlight.js compiling each language, the answer's and the conversation
 * list's components compiled, styled and laid out the first time. Measured in fresh windows
 * (issue 40, bench/probeFirstAnswer.ts), the webview took 36–161 ms from the answer's first message
 * to its text painted, where a later answer takes a frame, and the first task's earlier messages
 * (their schemas' first parse) held that message back. `warmUpFirstAnswer` pays them before, at
 * idle moments after the view loads (while the person reads it and writes).
 */
const SAMPLE = [
  "## Warm-up",
  "**Bold**, *em*, `code`, [a link](https://example.com), ~~struck~~ and a\nsecond line.",
  "- an item\n- an item with `code`\n  1. nested\n\n1. first\n2. second",
  "> a quote",
  "| a | b |\n|---|:-:|\n| `1` | 2 |",
  "---",
  "```ts\nexport function f(a: string): number {\n  return a.length; // one\n}\n```",
  "```\nplain\n```",
].join("\n\n");

const ANSWER: TranscriptItem = { id: "warm-up", kind: "assistant", text: SAMPLE, streaming: true };
/** The list's items: short, as the list stays for a few frames (hidden, but in the DOM). */
const ITEMS: TranscriptItem[] = [
  { id: "warm-up-user", kind: "user", text: "Warm-up" },
  { id: "warm-up-answer", kind: "assistant", text: "**Warm-up.**", streaming: true },
];

/** An off-screen root no one sees or reaches (hidden, inert, out of the accessibility tree). */
function offScreen(): { root: Root; host: HTMLElement; done: () => void } {
  const host = document.createElement("div");
  host.setAttribute("aria-hidden", "true");
  host.inert = true;
  host.className = "warm-up";
  document.body.append(host);
  const root = createRoot(host);
  return {
    root,
    host,
    done: () => {
      root.unmount();
      host.remove();
    },
  };
}

/** The assistant message a window shows first, rendered, styled and laid out once (nothing of it stays). */
function renderAnswer(): void {
  const { root, host, done } = offScreen();
  try {
    flushSync(() =>
      root.render(
        <div className="transcript-row">
          <TranscriptItemView item={ANSWER} />
        </div>,
      ),
    );
    // Styles matched, layout done, the code font loaded, as they are for the real one.
    host.getBoundingClientRect();
  } finally {
    done();
  }
}

/**
 * The conversation's list, which the first message mounts (the answer's first text waits behind
 * it): mounted off-screen for the few frames it takes to measure and show its items (a second at most).
 */
function mountTranscript(): void {
  const { root, host, done } = offScreen();
  const until = Date.now() + 1000;
  const check = () => {
    if (host.querySelector(".message.assistant .md-block") || Date.now() > until) done();
    else requestAnimationFrame(check);
  };
  try {
    flushSync(() => root.render(<Transcript items={ITEMS} status="running" prepended={0} />));
    requestAnimationFrame(check);
  } catch {
    done();
  }
}

/**
 * The host's messages of a first task, validated once: zod builds each schema's checks on its first
 * parse (tens of ms for the transcript items' union, measured in a fresh window, while the answer's
 * first message waited behind the first task's messages). Invalid ones count too: what matters is
 * that each schema on the way is used once.
 */
const FIRST_TASK_MESSAGES: unknown[] = [
  { type: "status", status: "running", title: "Warm-up" },
  { type: "itemAppended", item: ITEMS[0] },
  { type: "itemAppended", item: { ...ITEMS[1]!, text: "" } },
  { type: "textAppended", id: "warm-up-answer", text: "Warm-up." },
  { type: "itemUpdated", item: { ...ITEMS[1]!, streaming: false } },
  { type: "usage", usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 } },
  {
    type: "itemAppended",
    item: {
      id: "warm-up-tool",
      kind: "tool",
      toolName: "write_file",
      title: "Writing /a.ts",
      args: "{}",
      status: "awaiting_approval",
      startedAt: 0,
      proposal: {},
    },
  },
];

const STEPS: (() => void)[] = [
  () => FIRST_TASK_MESSAGES.forEach((message) => parseMessage(HostToWebviewChatSchema, message)),
  () => markdownBlocks(SAMPLE).forEach((block) => renderBlock(block.tokens)),
  ...HIGHLIGHTED_LANGUAGES.map((language) => () => void highlight("let a = 1; // x\n", language)),
  renderAnswer,
  mountTranscript,
];

let started = false;

/**
 * Starts the warm-up (once per view): as many steps as fit in each idle moment, and at least one
 * every 100 ms on a busy machine, so that it is over (in a second or two) before the first answer
 * comes rather than competing with it.
 */
export function warmUpFirstAnswer(): void {
  if (started) return;
  started = true;
  const steps = [...STEPS];
  const run = () => {
    try {
      steps.shift()?.();
    } catch {
      // A warm-up that fails costs the first answer its speed, nothing else.
    }
  };
  const next = (deadline: IdleDeadline) => {
    do run();
    while (steps.length > 0 && deadline.timeRemaining() > 8);
    if (steps.length > 0) requestIdleCallback(next, { timeout: 100 });
  };
  requestIdleCallback(next, { timeout: 100 });
}
