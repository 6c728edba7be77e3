import { useMemo, useState } from "react";
import { BannerView } from "./components/BannerView";
import { Composer } from "./components/Composer";
import { EmptyState } from "./components/EmptyState";
import { Header } from "./components/Header";
import { HistoryList } from "./components/HistoryList";
import { InterruptedBar } from "./components/InterruptedBar";
import { LiveRegion } from "./components/LiveRegion";
import { McpServersList } from "./components/McpServersList";
import { QueuedList } from "./components/QueuedList";
import { RestorePanel } from "./components/RestorePanel";
import { SetupView } from "./components/SetupView";
import { TodoList } from "./components/TodoList";
import { Transcript } from "./components/Transcript";
import { sentMessages } from "./state/chatReducer";
import { useAnnouncements } from "./state/useAnnouncements";
import { useChatState } from "./state/useChatState";

export function App() {
  const { chat, connected, mentions, generation, prepended, composerFill, models } = useChatState();
  const [historyOpen, setHistoryOpen] = useState(false);
  const announcement = useAnnouncements(chat, connected);
  const sent = useMemo(() => sentMessages(chat.items), [chat.items]);
  const running = chat.status === "running" || chat.status === "awaiting_approval";

  let body;
  if (!connected) body = <EmptyState connecting />;
  else if (chat.setupProblem && chat.items.length === 0) body = <SetupView problem={chat.setupProblem} />;
  else if (chat.items.length === 0) body = <EmptyState connecting={false} />;
  // A new `state` starts a fresh list (keyed), so its first paint starts at the end.
  else body = <Transcript key={generation} items={chat.items} status={chat.status} prepended={prepended} />;

  return (
    <div className="app">
      <Header chat={chat} historyOpen={historyOpen} onToggleHistory={() => setHistoryOpen(!historyOpen)} models={models} />
      <main className="main" aria-busy={!connected}>
        {historyOpen ? <HistoryList history={chat.history} currentTaskId={chat.taskId} storage={chat.checkpointStorage} onClose={() => setHistoryOpen(false)} /> : null}
        {chat.banner ? <BannerView banner={chat.banner} /> : null}
        {chat.status === "interrupted" ? <InterruptedBar /> : null}
        <McpServersList servers={chat.mcpServers} />
        <TodoList todos={chat.todos} />
        {body}
        {chat.restorePreview ? <RestorePanel key={chat.restorePreview.itemId} preview={chat.restorePreview} /> : null}
        <QueuedList queued={chat.queued} setupProblem={chat.setupProblem} setupShown={Boolean(chat.setupProblem && chat.items.length === 0)} />
        <Composer running={running} sent={sent} mentions={mentions} fill={composerFill} model={chat.model} />
        <LiveRegion message={announcement} />
      </main>
    </div>
  );
}
