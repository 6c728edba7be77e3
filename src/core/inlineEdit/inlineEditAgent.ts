import { createAgent, type Agent, type AgentOptions } from "../agent/createAgent";
import { secretFileMatcher } from "../trust/secretFiles";
import { createEditSelectionTool } from "./editSelectionTool";
import { InlineEditModel } from "./inlineEditModel";
import type { InlineEditRequest } from "./prompt";

/**
 * The agent of an inline edit: the same `createAgent` as any task (approvals, checkpoints,
 * the host's middleware, events), with one tool, `edit_selection`, and the person's model
 * behind InlineEditModel, which asks it for the replacement with no tools and makes that
 * answer the tool's call. Commands, MCP tools, subagents and project rules have no part in it.
 */
export function createInlineEditAgent(options: AgentOptions, request: InlineEditRequest): Agent {
  const { backend, executor: _executor, tools: _tools, subagents: _subagents, ...rest } = options;
  if (!backend) throw new Error("An inline edit needs the workspace's files (a backend).");
  return createAgent({
    ...rest,
    backend,
    model: new InlineEditModel(options.model, { request, backend, isSecret: secretFileMatcher(options.secretFiles) }),
    // The backend given here is the one writes go through (checkpointed), not `backend` itself.
    fileTools: (writes) => [createEditSelectionTool(writes)],
    generalPurposeSubagent: false,
    rules: false,
  });
}
