// Edits auto (issue 42, permission levels): the person picks "Edits auto, review after" in the
// header's Approvals box, and each edit lands with no card in the way. Measured: the last chunk
// of the edit call streamed → the file on disk (the bound: ≤ 50 ms).
import type { Frame } from "playwright-core";
import type { RecordedRequest, ScriptedModelServer } from "../test/support/scriptedModelServer";
import { until } from "../test/vscode/harness/chat";
import { gate, whenFile } from "./hostWatchers";

export async function editsAutoToDisk(o: {
  chat: Frame;
  server: ScriptedModelServer;
  /** The file on disk, and its path as the agent sees it. */
  file: string;
  virtualPath: string;
  /** Sample i's edit: a line of the file, and what replaces it. */
  edit: (i: number) => { old: string; next: string };
  samples: number;
  send: (text: string) => Promise<void>;
}): Promise<number[]> {
  const { chat, server } = o;
  await chat.getByRole("button", { name: "New task" }).click();
  const levels = chat.getByRole("combobox", { name: "Approvals" });
  await levels.selectOption("editsAuto");
  // The box shows the host's level: the pick is in force once it comes back.
  await until("Edits auto in force", async () => (await levels.inputValue()) === "editsAuto", 15_000, 20);
  server.push({ toolCalls: [{ name: "read_file", arguments: { file_path: o.virtualPath } }] });
  const held = Array.from({ length: o.samples }, (_, i) => {
    const { old, next } = o.edit(i);
    const h = { gate: gate(), request: undefined as RecordedRequest | undefined, next };
    server.push(async (r) => {
      h.request = r;
      await h.gate.promise;
      return {
        toolCalls: [{ name: "edit_file", arguments: { file_path: o.virtualPath, old_string: old, new_string: next } }],
        chunkDelayMs: 15,
      };
    });
    return h;
  });
  server.push({ text: "Done editing unasked." });
  await o.send(`Edit ${o.virtualPath} line by line.`);
  const toDisk: number[] = [];
  for (const h of held) {
    await until("the edit request", () => h.request, 90_000, 20);
    const onDisk = whenFile(o.file, (text) => text.includes(h.next));
    h.gate.open();
    const writtenAt = await onDisk;
    const last = await until("the edit's last chunk", () => h.request?.lastChunkAt, 10_000, 5);
    toDisk.push(writtenAt - last);
  }
  await chat.getByText("Done editing unasked.").waitFor({ state: "visible", timeout: 60_000 });
  // Back to Ask for whatever runs after.
  await levels.selectOption("ask");
  await until("Ask in force", async () => (await levels.inputValue()) === "ask", 15_000, 20);
  return toDisk;
}
