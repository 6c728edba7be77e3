import type { ApprovalsView, ChatState, TeamFilesView } from "../../../src/protocol";
import { ApprovalsPicker } from "./ApprovalsPicker";
import { AgentPicker } from "./AgentPicker";
import { RulesInForce } from "./RulesInForce";
import { formatCost, formatTokens } from "../lib/format";
import type { ModelListView } from "../state/chatReducer";
import { postToHost } from "../vscodeApi";
import { ModelPicker } from "./ModelPicker";
import { IconButton } from "./IconButton";

interface Props {
  chat: ChatState;
  historyOpen: boolean;
  onToggleHistory: () => void;
  /** The Model box's latest list from the host. */
  models?: ModelListView | undefined;
  /** The custom agents found, for the Agent box (undefined until the host sent them). */
  agents?: TeamFilesView["agents"] | undefined;
  /** The window's permission level (undefined until the host sent it). */
  approvals?: ApprovalsView | undefined;
}

/** Task title, the Model, Agent and Approvals boxes, "Rules (N)", tokens, cost, context used, and the "History" / "New task" buttons. */
export function Header({ chat, historyOpen, onToggleHistory, models, agents, approvals }: Props) {
  const { usage, model } = chat;
  const contextShare = usage.contextWindow > 0 ? Math.min(usage.contextTokens / usage.contextWindow, 1) : 0;
  return (
    <header className="header">
      <div className="header-row">
        <h1 className="task-title" title={chat.title || "New task"}>
          {chat.title || "New task"}
        </h1>
        {chat.restricted ? (
          <span
            className="tag"
            title="Restricted Mode: Fathom can read and answer, but not write files or run commands"
          >
            <span className="codicon codicon-lock" aria-hidden="true" />
            Read only
          </span>
        ) : null}
        <IconButton
          icon="history"
          label="Task history"
          title="Task history"
          aria-expanded={historyOpen}
          aria-controls="history-panel"
          onClick={onToggleHistory}
        />
        <IconButton icon="add" label="New task" title="New task" onClick={() => postToHost({ type: "newTask" })} />
      </div>
      {chat.demo ? (
        <div className="header-demo">
          <span
            className="tag demo-tag"
            title="A recorded session plays the model's part: no model is called and no API key is used."
          >
            <span className="codicon codicon-play-circle" aria-hidden="true" />
            Demo: a recorded session, no real model
          </span>
        </div>
      ) : null}
      <div className="header-meta">
        {chat.demo ? (
          <span className="model" title={`${model.provider} · ${model.model}`}>
            <span className="codicon codicon-sparkle" aria-hidden="true" />
            {model.model}
          </span>
        ) : (
          <ModelPicker model={model} list={models} />
        )}
        {chat.demo ? null : <AgentPicker agent={chat.agent} agents={agents} />}
        {chat.demo ? null : <ApprovalsPicker approvals={approvals} />}
        <RulesInForce rules={chat.rules} />
        {model.model || usage.inputTokens > 0 ? (
          <span className="tokens" title="Tokens sent to and received from the model">
            <span className="codicon codicon-arrow-up" aria-hidden="true" />
            <span className="visually-hidden">Input tokens </span>
            {formatTokens(usage.inputTokens)}
            <span className="codicon codicon-arrow-down" aria-hidden="true" />
            <span className="visually-hidden">, output tokens </span>
            {formatTokens(usage.outputTokens)}
          </span>
        ) : null}
        {usage.costUsd !== undefined ? (
          <span className="cost" title="Estimated cost of this task">
            <span className="visually-hidden">Cost </span>
            {formatCost(usage.costUsd)}
          </span>
        ) : null}
        {usage.contextWindow > 0 ? (
          <span
            className="context"
            title={`Context: ${usage.contextTokens.toLocaleString()} of ${usage.contextWindow.toLocaleString()} tokens`}
          >
            <meter
              className="context-meter"
              aria-label="Context used"
              min={0}
              max={1}
              low={0.7}
              high={0.9}
              optimum={0}
              value={contextShare}
            />
            {formatTokens(usage.contextTokens)} / {formatTokens(usage.contextWindow)}
          </span>
        ) : null}
      </div>
    </header>
  );
}
