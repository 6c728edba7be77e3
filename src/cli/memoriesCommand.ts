import { createInterface } from "node:readline/promises";
import * as path from "node:path";
import { clearMemories, listMemories, memoryFolders, removeMemory } from "../core/memory/memoryStore";
import { HELP_OPTION, parseCommandArgs } from "./commandArgs";

export class MemoriesUsageError extends Error {}

export const MEMORIES_USAGE = `Usage: fathom memories [--cwd DIR] [--json]
       fathom memories rm PATH [--cwd DIR]
       fathom memories clear [--cwd DIR] [--yes]

What Fathom remembers, as plain markdown files kept outside the repository: /memories/ for this
workspace, /memories/user/ for you across workspaces. "rm" deletes one (a path as listed);
"clear" deletes them all (asked at a terminal; --yes otherwise).`;

interface Io {
  out: NodeJS.WritableStream;
  err: NodeJS.WritableStream;
  input: NodeJS.ReadableStream & { isTTY?: boolean };
}

/** `fathom memories`: list, remove one, or clear this workspace's and the person's memories. */
export async function memoriesCommand(argv: readonly string[], cwd: string, io: Io): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    argv,
    {
      cwd: { type: "string" },
      json: { type: "boolean" },
      yes: { type: "boolean", short: "y" },
      ...HELP_OPTION,
    },
    MemoriesUsageError,
  );
  if (values.help) {
    io.out.write(`${MEMORIES_USAGE}\n`);
    return 0;
  }
  const folders = memoryFolders(path.resolve(cwd, values.cwd ?? "."));
  const [action, target, ...extra] = positionals;
  if (extra.length > 0) throw new MemoriesUsageError(`Unexpected "${extra.join(" ")}".`);
  if (action === undefined) {
    const files = listMemories(folders);
    if (values.json) {
      io.out.write(`${JSON.stringify({ project: folders.project, user: folders.user, memories: files })}\n`);
      return 0;
    }
    if (files.length === 0)
      io.err.write(
        `No memories yet. They are kept in ${folders.project} (this workspace) and ${folders.user} (yours).\n`,
      );
    for (const f of files)
      io.out.write(
        `${f.path}  ${f.firstLine}${f.overCap ? `  [${Math.ceil(f.size / 1024)} KB: over the cap, only its start is read]` : ""}\n`,
      );
    return 0;
  }
  if (action === "rm") {
    if (!target)
      throw new MemoriesUsageError(
        "fathom memories rm needs the path of a memory, as fathom memories lists it (/memories/style.md).",
      );
    const removed = removeMemory(folders, target);
    if ("error" in removed) {
      io.err.write(`fathom: ${removed.error}\n`);
      return 1;
    }
    io.err.write(`Deleted ${removed.removed}.\n`);
    return 0;
  }
  if (action === "clear") {
    const count = listMemories(folders).length;
    if (count === 0) {
      io.err.write("No memories to delete.\n");
      return 0;
    }
    if (!values.yes) {
      if (io.input.isTTY !== true)
        throw new MemoriesUsageError(
          `fathom memories clear deletes ${count} memories; pass --yes to confirm (no terminal to ask on).`,
        );
      const rl = createInterface({ input: io.input, output: io.err });
      const reply = (
        await rl.question(`Delete all ${count} memories (this workspace's and yours)? [y]es / [N]o: `).catch(() => "")
      )
        .trim()
        .toLowerCase();
      rl.close();
      if (reply !== "y" && reply !== "yes") {
        io.err.write("Nothing was deleted.\n");
        return 0;
      }
    }
    io.err.write(`Deleted ${clearMemories(folders)} memories.\n`);
    return 0;
  }
  throw new MemoriesUsageError(
    `Unknown "${action}": use fathom memories, fathom memories rm PATH or fathom memories clear.`,
  );
}
