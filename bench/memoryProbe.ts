// The extension host's memory after a full garbage collection, through the bench-only probe
// extension (test/vscode/memory-probe-extension): memory Fathom holds, apart from garbage V8 has
// not given back yet.
import * as fs from "node:fs";
import type { Page } from "playwright-core";
import { runCommand, until } from "../test/vscode/harness/chat";

export interface HostMemory {
  /** RSS and JS heap before the collection (as the host was). */
  rssBefore: number;
  heapBefore: number;
  /** After two full collections. */
  rssAfter: number;
  heapAfter: number;
}

export async function measureHostMemory(page: Page, resultFile: string): Promise<HostMemory> {
  const lines = () =>
    fs.existsSync(resultFile) ? fs.readFileSync(resultFile, "utf8").trim().split("\n").filter(Boolean) : [];
  const before = lines().length;
  await runCommand(page, "Fathom Bench: Measure Memory");
  const line = await until("the memory probe's line", () => lines()[before], 30_000, 100);
  const m = JSON.parse(line) as { before: NodeJS.MemoryUsage; after: NodeJS.MemoryUsage };
  return { rssBefore: m.before.rss, heapBefore: m.before.heapUsed, rssAfter: m.after.rss, heapAfter: m.after.heapUsed };
}
