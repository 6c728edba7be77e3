/**
 * What Fathom learned about a server and model while it ran, kept for the process (every task
 * of a VS Code window, every request of a CLI run), keyed by provider, base URL and model: a mode
 * it refused or ignored is not tried again, and each lesson is said once.
 */
import type { ProbeResult } from "../fit/modelFit";
import type { ToolCallMode } from "../types";

export interface ToolCallLessons {
  /** Modes the server refused or ignored: each is passed over for the next (constrained → native → text). */
  refused?: Set<ToolCallMode>;
  /** The server held a reply to the schema once: a later bad reply is the model's, not an ignored field. */
  honoursSchema?: boolean;
  /** What the server said of the model's size, asked once. */
  probed?: Promise<ProbeResult | undefined>;
}

const lessons = new Map<string, ToolCallLessons>();

/** The lessons for `key`; a model without a key (a test's, VS Code's) keeps its own. */
export function lessonsFor(key: string | undefined): ToolCallLessons {
  if (key === undefined) return {};
  let found = lessons.get(key);
  if (!found) lessons.set(key, (found = {}));
  return found;
}

/** Forgets everything (tests; a person who changed the server's setup can reload the window). */
export function forgetToolCallLessons(): void {
  lessons.clear();
}
