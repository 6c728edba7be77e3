import { formatTextWindow } from "../backends/format";
import type { ToolResult } from "../tools/tool";
import type { Middleware } from "./types";
import { toolError } from "./types";

/** DeepAgents' figure: 4 characters per token times 20,000 tokens. */
export const DEFAULT_EVICTION_THRESHOLD_CHARS = 80_000;
export const LARGE_RESULTS_DIR = "/large_tool_results/";
const PREVIEW_HEAD_LINES = 10;
const PREVIEW_TAIL_LINES = 5;
const PREVIEW_LINE_CHARS = 400;

export interface EvictionOptions {
  thresholdChars?: number;
}

/**
 * A tool result longer than the threshold is saved in the run's scratch area
 * (`state.files`, under /large_tool_results/<id>) and replaced by a head/tail preview with the
 * path. `read_file` on that path pages through it.
 */
export function evictionMiddleware(options: EvictionOptions = {}): Middleware {
  const threshold = options.thresholdChars ?? DEFAULT_EVICTION_THRESHOLD_CHARS;
  return {
    name: "eviction",
    async wrapToolCall(call, ctx, next) {
      const filePath = call.args.file_path;
      if (call.name === "read_file" && typeof filePath === "string" && filePath.startsWith(LARGE_RESULTS_DIR)) {
        // A subagent reads its parent's saved results too (the parent hands it their paths).
        return readSaved(
          ctx.parentFiles ? { ...ctx.parentFiles, ...ctx.state.files } : ctx.state.files,
          filePath,
          call.args.offset,
          call.args.limit,
          threshold,
        );
      }
      const result = await next(call);
      if (result.content.length <= threshold) return result;
      const path = `${LARGE_RESULTS_DIR}${call.id.replace(/[^A-Za-z0-9_.-]/g, "_")}`;
      ctx.state.files[path] = result.content;
      ctx.emit({
        type: "warning",
        code: "tool_result_evicted",
        message: `${call.name} returned ${result.content.length} characters; saved to ${path}`,
      });
      return {
        ...result,
        content: preview(call.name, path, result.content),
        details: { ...result.details, evictedTo: path },
      };
    },
  };
}

function preview(toolName: string, path: string, content: string): string {
  const lines = content.split("\n");
  const cut = (line: string) => (line.length > PREVIEW_LINE_CHARS ? `${line.slice(0, PREVIEW_LINE_CHARS)}…` : line);
  const head = lines.slice(0, PREVIEW_HEAD_LINES).map(cut);
  const tail =
    lines.length > PREVIEW_HEAD_LINES + PREVIEW_TAIL_LINES
      ? lines.slice(-PREVIEW_TAIL_LINES).map(cut)
      : lines.slice(PREVIEW_HEAD_LINES).map(cut);
  const omitted = lines.length - head.length - tail.length;
  return [
    `The ${toolName} result was too long to show (${content.length} characters, ${lines.length} lines). It is saved at ${path}; read it in pages with read_file (file_path "${path}", offset, limit).`,
    "Start:",
    ...head,
    ...(omitted > 0 ? [`[... ${omitted} lines omitted ...]`] : []),
    ...(tail.length ? ["End:", ...tail] : []),
  ].join("\n");
}

function readSaved(
  files: Record<string, string>,
  path: string,
  offset: unknown,
  limit: unknown,
  maxChars: number,
): ToolResult {
  const text = files[path];
  if (text === undefined) {
    const saved = Object.keys(files).filter((p) => p.startsWith(LARGE_RESULTS_DIR));
    return toolError(`Error: ${path} does not exist.${saved.length ? ` Saved results: ${saved.join(", ")}.` : ""}`);
  }
  const window = formatTextWindow(
    text,
    typeof offset === "number" ? offset : 0,
    typeof limit === "number" ? limit : undefined,
  );
  if (window.error !== undefined) return toolError(`Error: ${window.error}`);
  let content = window.content ?? "";
  if (content.length > maxChars) {
    const kept = content.slice(0, maxChars);
    const lastNewline = kept.lastIndexOf("\n");
    content = `${lastNewline > 0 ? kept.slice(0, lastNewline) : kept}\n[... page cut at ${maxChars} characters; read on with a larger offset or a smaller limit ...]`;
  }
  return { content };
}
