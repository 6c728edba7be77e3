// The five everyday tasks the real-model suite (CLI and code-server) and the bench give the small
// local model. Each has its workspace, a step limit and a test of success that reads only the
// outcome (files on disk, the answer, the tools that ran), never the exact words.
import * as fs from "node:fs";
import * as path from "node:path";
import type { AgentEvent } from "../../src/core/run/events";

export type TaskId = "hello" | "read" | "create" | "change" | "command";

export interface TaskOutcome {
  /** The workspace after the run. */
  workspace: string;
  done?: Extract<AgentEvent, { type: "done" }>;
  events: AgentEvent[];
}

export interface RealTask {
  id: TaskId;
  prompt: string;
  /** The workspace's files before the run. */
  files: Record<string, string>;
  maxSteps: number;
  /** Needs writes or commands approved (the CLI's --yes). */
  writes: boolean;
  /** Whether the task was done, judged from its outcome. */
  succeeded(outcome: TaskOutcome): boolean;
}

type Finished = Extract<AgentEvent, { type: "tool_call_finished" }>;

export function finishedCalls(events: AgentEvent[]): Finished[] {
  return events.filter((e): e is Finished => e.type === "tool_call_finished");
}

function read(outcome: TaskOutcome, file: string): string | undefined {
  try {
    return fs.readFileSync(path.join(outcome.workspace, file), "utf8");
  } catch {
    return undefined;
  }
}

const answered = (o: TaskOutcome) => o.done?.reason === "completed" && (o.done.finalText ?? "").trim().length > 0;

export const CONFIG_BEFORE = "name = demo\nport = 3000\ndebug = false\n";
export const CONFIG_AFTER = "name = demo\nport = 8080\ndebug = false\n";

export const TASKS: RealTask[] = [
  {
    id: "hello",
    prompt: "Say hello in one short sentence.",
    files: { "README.md": "# demo\n" },
    maxSteps: 3,
    writes: false,
    succeeded: answered,
  },
  {
    id: "read",
    prompt: "Read the file /notes/launch.txt and tell me the launch code it gives.",
    files: { "README.md": "# demo\n", "notes/launch.txt": "Launch checklist.\nThe launch code is PURPLE-42.\n" },
    maxSteps: 4,
    writes: false,
    // The code is only in the file: an answer with it came from reading the file.
    succeeded: (o) => answered(o) && o.done!.finalText.includes("PURPLE-42"),
  },
  {
    id: "create",
    prompt: "Create a new file /hello.txt that contains exactly this text: Hello, world!",
    files: { "README.md": "# demo\n" },
    maxSteps: 4,
    writes: true,
    succeeded: (o) => read(o, "hello.txt")?.trim() === "Hello, world!",
  },
  {
    id: "change",
    prompt: "In the file /config.ini, change the port from 3000 to 8080. Change nothing else.",
    files: { "README.md": "# demo\n", "config.ini": CONFIG_BEFORE },
    maxSteps: 6,
    writes: true,
    succeeded: (o) => read(o, "config.ini")?.replace(/\n?$/, "\n") === CONFIG_AFTER,
  },
  {
    id: "command",
    prompt: "Run the shell command `echo fathom-$((6*7))` with the execute tool and tell me what it printed.",
    files: { "README.md": "# demo\n" },
    maxSteps: 4,
    writes: true,
    succeeded: (o) =>
      finishedCalls(o.events).some((c) => c.toolName === "execute" && !c.isError && c.content.includes("fathom-42")) &&
      answered(o) &&
      o.done!.finalText.includes("fathom-42"),
  },
];

export function writeWorkspace(dir: string, files: Record<string, string>): void {
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
    fs.writeFileSync(path.join(dir, file), text);
  }
}

/** Every file under `dir` with its text (small workspaces only). */
export function snapshot(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    out.set(path.relative(dir, file), fs.readFileSync(file, "utf8"));
  }
  return out;
}

/** pass^k: the share of tasks whose k runs all succeeded, per task 1 or 0; with k = 1, pass@1. */
export function passHatK(results: boolean[]): number {
  return results.length > 0 && results.every(Boolean) ? 1 : 0;
}
