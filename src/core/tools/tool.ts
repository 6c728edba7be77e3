import type { z } from "zod";
import type { ImagePart } from "../model/types";
import type { RunState } from "../run/runState";

/** What a tool hands back to the loop. Failures are values written for the model, never throws. */
export interface ToolResult {
  /** Text the model sees as the tool result. */
  content: string;
  /** True when the call failed (bad arguments, refused path, non-zero exit...). */
  isError?: boolean;
  /** Images for the model (sent only to models that take images; the others are told they exist). */
  images?: ImagePart[];
  /** Structured facts for the UI and logs (never sent to the model). */
  details?: Record<string, unknown>;
}

/** A whole-file change a person can review (and edit) before it is written. */
export interface FileChangeProposal {
  /** Virtual path as the model gave it, normalised (for example `/src/a.ts`). */
  path: string;
  /** File content before the change; null when the file does not exist yet. */
  before: string | null;
  /** Proposed content after the change. */
  after: string;
}

export interface ToolContext {
  /** Aborts when the person cancels or the run ends. */
  signal: AbortSignal;
  /** The model's id for this call. */
  toolCallId: string;
  /** Live progress for the UI (for example command output as it arrives). */
  onProgress?: (chunk: string) => void;
}

/**
 * `read` tools have no side effects: they may run concurrently and are auto-approved by default.
 * `edit` tools change files, `execute` runs commands, `other` is everything else (todos, task).
 */
export type ToolKind = "read" | "edit" | "execute" | "other";

export interface Tool<S extends z.ZodType = z.ZodType> {
  name: string;
  /** Concise: what it does, what it returns, its limits. */
  description: string;
  /** Arguments, validated before `run`; the JSON Schema the model sees is derived from it. */
  schema: S;
  kind: ToolKind;
  /**
   * Overrides the policy for the tool's kind: "ask" (a tool from an MCP server, whose effects
   * Fathom cannot know) or "auto" (one the person's config lets run). A per-tool policy wins.
   */
  approval?: "auto" | "ask";
  /**
   * Why this call must reach the person although its kind runs unasked (a web domain the task
   * has not been allowed yet); undefined when it need not. No policy or "always allow" skips it.
   */
  askWhy?(args: z.infer<S>, state: RunState): string | undefined;
  /** The JSON Schema the model sees, when it is not derived from `schema` (an MCP tool's own). */
  parameters?: Record<string, unknown>;
  run(args: z.infer<S>, ctx: ToolContext): Promise<ToolResult>;
  /**
   * Edit tools only: compute the change without writing anything, so it can be shown as a diff
   * and approved. Returns `{ error }` (written for the model) when the change cannot be made.
   */
  proposeChange?(args: z.infer<S>, ctx: ToolContext): Promise<FileChangeProposal | { error: string }>;
  /**
   * Edit tools only: write an approved proposal (whose `after` a person may have changed).
   * Refuses, as an error result, if the file changed on disk since `before` was read.
   */
  applyChange?(proposal: FileChangeProposal, ctx: ToolContext): Promise<ToolResult>;
}

/** Identity helper that keeps the schema's argument type attached to `run`. */
export function defineTool<S extends z.ZodType>(tool: Tool<S>): Tool<S> {
  return tool;
}
