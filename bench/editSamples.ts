// Edits for the real-host bench: each is held back until the page's watchers are armed, then
// streamed; the bench stamps the card and the diff painted, Approve → on disk and Approve → the
// model's next request.
import type { Frame, Page } from "playwright-core";
import type { RecordedRequest, ScriptedModelServer } from "../test/support/scriptedModelServer";
import { until } from "../test/vscode/harness/chat";
import { armWatchers, gate, stamps, whenFile } from "./hostWatchers";

export interface PaintSample {
  diff: number;
  card: number;
  cardMsg: number;
}

interface Held {
  gate: ReturnType<typeof gate>;
  request: RecordedRequest | undefined;
  pace: "paced" | "burst";
}

export class EditSamples {
  readonly paced: PaintSample[] = [];
  readonly burst: PaintSample[] = [];
  readonly approveToDisk: number[] = [];
  /** Approve clicked → the model's next request, by the written file's kind. */
  readonly approveToRequest: Record<"js" | "txt" | "ts", number[]> = { js: [], txt: [], ts: [] };

  constructor(
    private readonly page: Page,
    private readonly chat: Frame,
    private readonly server: ScriptedModelServer,
    private readonly chunkMs: number,
  ) {}

  /** An edit turn (`edit_file`, or `tool`'s call), queued now and held back until `measure` arms the watchers. */
  gated(edit: Record<string, unknown>, pace: "paced" | "burst", tool = "edit_file"): Held {
    const held: Held = { gate: gate(), request: undefined, pace };
    this.server.push(async (r) => {
      held.request = r;
      await held.gate.promise;
      return { toolCalls: [{ name: tool, arguments: edit }], chunkDelayMs: pace === "paced" ? this.chunkMs : 0 };
    });
    return held;
  }

  /** `written`: a line of the proposal, shown in the diff and then on disk. */
  async measure(held: Held, file: string, written: string, kind: "js" | "txt" | "ts"): Promise<void> {
    const { page, chat, server } = this;
    await until("the edit request", () => held.request, 90_000, 20);
    // Nothing of an earlier proposal is left on screen.
    await until(
      "no diff editor open",
      async () => (await page.locator(".editor-group-container .monaco-diff-editor").count()) === 0,
      30_000,
    );
    await armWatchers(page, chat, written);
    held.gate.open();
    const { diffAt, cardAt, cardMsgAt } = await stamps(page, chat);
    const last = await until("the edit's last chunk", () => held.request?.lastChunkAt, 10_000, 20);
    (held.pace === "paced" ? this.paced : this.burst).push({
      diff: diffAt - last,
      card: cardAt - last,
      cardMsg: cardMsgAt - last,
    });
    const clicks = ((await chat.evaluate("window.__approveAt")) as number[]).length;
    const onDisk = whenFile(file, (text) => text.includes(written));
    const requestsBefore = server.requests.length;
    await chat
      .getByRole("region", { name: /^Proposed change to / })
      .last()
      .getByRole("button", { name: "Approve" })
      .click();
    const writtenAt = await onDisk;
    const clickedAt = ((await chat.evaluate("window.__approveAt")) as number[])[clicks]!;
    this.approveToDisk.push(writtenAt - clickedAt);
    const next = await until("the request after the edit", () => server.requests[requestsBefore], 60_000, 5);
    this.approveToRequest[kind].push(next.receivedAt! - clickedAt);
  }
}
