import { useMemo, useState } from "react";
import { BannerView } from "./components/BannerView";
import { ChangesList } from "./components/ChangesList";
import { Composer } from "./components/Composer";
import { EmptyState } from "./components/EmptyState";
import { Header } from "./components/Header";
import { HistoryList } from "./components/HistoryList";
import { InterruptedBar } from "./components/InterruptedBar";
import { LiveRegion } from "./components/LiveRegion";
import { McpServersList } from "./components/McpServersList";
import { TeamFilesList } from "./components/TeamFilesList";
import { MemoriesList } from "./components/MemoriesList";
import { QueuedList } from "./components/QueuedList";
import { RestorePanel } from "./components/RestorePanel";
import { SetupView } from "./components/SetupView";
import { TaskList } from "./components/TaskList";
import { TodoList } from "./components/TodoList";
import { WorktreeList, WorktreeReview } from "./components/WorktreeReview";
import { Transcript } from "./components/Transcript";
import { sentMessages } from "./state/chatReducer";
import { useAnnouncements } from "./state/useAnnouncements";
import { useChatState } from "./state/useChatState";

export function App() {
  const { chat, connected, mentions, generation, prepended, composerFill, models, chips, teamFiles, memories } =
    useChatState();
  const [historyOpen, setHistoryOpen] = useState(false);
  const announcement = useAnnouncements(chat, connected);
  const sent = useMemo(() => sentMessages(chat.items), [chat.items]);
  const running = chat.status === "running" || chat.status === "awaiting_approval";
  const { parallel } = chat;
  const ownWorktree = chat.taskId ? parallel.worktrees.find((w) => w.taskId === chat.taskId) : undefined;
  // Worktrees of tasks not open here (other windows, the CLI, interrupted ones).
  const openIds = new Set([chat.taskId, ...parallel.tasks.map((t) => t.taskId)]);
  const otherWorktrees = parallel.worktrees.filter((w) => !openIds.has(w.taskId));
  const sharedWith = parallel.tasks.filter(
    (t) => !t.shown && !t.branch && (t.status === "running" || t.status === "awaiting_approval"),
  ).length;

  let body;
  if (!connected) body = <EmptyState connecting />;
  else if (chat.setupProblem && chat.items.length === 0) body = <SetupView problem={chat.setupProblem} />;
  else if (chat.items.length === 0) body = <EmptyState connecting={false} demo={chat.demo} />;
  // A new `state` starts a fresh list (keyed), so its first paint starts at the end.
  else body = <Transcript key={generation} items={chat.items} status={chat.status} prepended={prepended} />;

  return (
    <div className="app">
      <Header
        chat={chat}
        historyOpen={historyOpen}
        onToggleHistory={() => setHistoryOpen(!historyOpen)}
        models={models}
        agents={teamFiles?.agents}
      />
      <main className="main" aria-busy={!connected}>
        {historyOpen ? (
          <HistoryList
            history={chat.history}
            currentTaskId={chat.taskId}
            storage={chat.checkpointStorage}
            onClose={() => setHistoryOpen(false)}
          />
        ) : null}
        {chat.banner ? <BannerView banner={chat.banner} /> : null}
        <TaskList tasks={parallel.tasks} />
        {chat.status === "interrupted" ? <InterruptedBar /> : null}
        <McpServersList servers={chat.mcpServers} />
        <TeamFilesList teamFiles={teamFiles} />
        <MemoriesList memories={memories ?? null} />
        <WorktreeList worktrees={otherWorktrees} remote={parallel.remote} />
        <TodoList todos={chat.todos} />
        {body}
        {ownWorktree ? <WorktreeReview worktree={ownWorktree} /> : null}
        {chat.changes ? <ChangesList changes={chat.changes} /> : null}
        {chat.restorePreview ? <RestorePanel key={chat.restorePreview.itemId} preview={chat.restorePreview} /> : null}
        <QueuedList
          queued={chat.queued}
          setupProblem={chat.setupProblem}
          setupShown={Boolean(chat.setupProblem && chat.items.length === 0)}
        />
        <Composer
          running={running}
          mode={chat.mode}
          sent={sent}
          mentions={mentions}
          fill={composerFill}
          chips={chips}
          model={chat.model}
          worktree={
            chat.taskId || (!parallel.worktreeMode.available && !parallel.worktreeMode.reason)
              ? null
              : parallel.worktreeMode
          }
          sharedWith={chat.taskId ? 0 : sharedWith}
          commands={teamFiles?.commands}
        />
        <LiveRegion message={announcement} />
      </main>
    </div>
  );
}
