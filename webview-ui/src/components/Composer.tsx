import { useEffect, useRef, useState } from "react";
import {
  MAX_MESSAGE_CHARS,
  parseSlashCommand,
  type ChatState,
  type TaskMode,
  type TeamFilesView,
} from "../../../src/protocol";
import { useImageAttachments } from "../lib/useImageAttachments";
import type { MentionResults, ViewState } from "../state/chatReducer";
import { ComposerChips } from "./AttachmentChips";
import { postToHost } from "../vscodeApi";
import { MentionPicker } from "./MentionPicker";
import { requestFollow } from "../lib/follow";
import { builtinFor } from "../lib/builtinCommands";
import { askTeamFilesOnce } from "../lib/teamFilesRequest";
import { SlashPicker } from "./SlashPicker";
import { pickerOptionId } from "./PickerOption";
import { useMessageText } from "./composer/useMessageText";
import { useMentionPicker } from "./composer/useMentionPicker";
import { useCommandMenu } from "./composer/useCommandMenu";
import { useSentHistory } from "./composer/useSentHistory";
import { onComposerKeyDown } from "./composer/composerKeys";
import { ImagesToSend } from "./composer/ImagesToSend";
import { WorktreeOption } from "./composer/WorktreeOption";
import { ComposerActions } from "./composer/ComposerActions";

interface Props {
  /** A task is running: the button cancels it; Enter sends now (read at its next step), Queue waits for it to end. */
  running: boolean;
  /** The open task's mode: the Plan / Act switch starts from it. */
  mode?: TaskMode;
  /** Messages sent earlier, oldest first, for Up/Down. */
  sent: string[];
  mentions: MentionResults | null;
  /** Text the host put back (Edit and resend). */
  fill?: { text: string; seq: number } | undefined;
  /** Chips to send with the message (kept by the host: Add Selection / File / Terminal Output / Problems). */
  chips?: ViewState["chips"];
  /** The model answering: images are taken only when it reads them. */
  model: ChatState["model"];
  /** A new task: whether it can run in a worktree of its own (null once the task has started). */
  worktree?: ChatState["parallel"]["worktreeMode"] | null;
  /** Other tasks run in this folder: a new one here may collide with them. */
  sharedWith?: number;
  /** The prompt files' commands for the `/` picker (undefined until the host sent them). */
  commands?: TeamFilesView["commands"] | undefined;
}

const LIST_ID = "mention-list";
const SLASH_LIST_ID = "slash-list";
const NO_CHIPS: ViewState["chips"] = { attachments: [], focusSeq: 0 };

/** The message box: Enter sends, Shift+Enter is a new line, Up recalls, `@` mentions a file, a pasted or dropped image is attached. */
export function Composer({
  running,
  mode: taskMode = "act",
  sent,
  mentions,
  fill,
  chips = NO_CHIPS,
  model,
  worktree,
  sharedWith = 0,
  commands,
}: Props) {
  const [chosenMode, setChosenMode] = useState<TaskMode | null>(null);
  const mode = chosenMode ?? taskMode;
  // The task changed mode (a plan was started, another task opened): the switch follows it.
  useEffect(() => setChosenMode(null), [taskMode]);
  const [inWorktree, setInWorktree] = useState<boolean | null>(null);
  const worktreeChosen = worktree?.available ? (inWorktree ?? worktree.byDefault) : false;
  const [error, setError] = useState("");
  const { images, clear: clearImages, remove: removeImage, onPaste, onDrop } = useImageAttachments(model, setError);
  const messageText = useMessageText(fill, chips.focusSeq);
  const { text, setText, box } = messageText;
  const history = useSentHistory(sent, messageText);
  const mention = useMentionPicker(mentions, messageText);
  const slash = useCommandMenu(commands, messageText);

  // Says once in a while that the person is writing, so the host gets a first task's needs ready.
  const composingSaidAt = useRef(0);
  const composing = () => {
    if (running || Date.now() - composingSaidAt.current < 20_000) return;
    composingSaidAt.current = Date.now();
    postToHost({ type: "composing" });
    askTeamFilesOnce();
  };

  const send = (queue = false) => {
    const message = text.trim();
    const attachments = chips.attachments;
    const slashCommand = parseSlashCommand(message);
    // "/plan" alone (as typed) switches the message box to Plan; the built-in sends only with text.
    if (slashCommand?.name === "plan" && !slashCommand.args && images.length === 0 && attachments.length === 0) {
      setChosenMode("plan");
      setText("");
      return;
    }
    if (!message && images.length === 0 && attachments.length === 0) return;
    // Fathom's own commands (/new…) run here; a prompt file's `/name args` goes to the host, which fills it in.
    const builtin = builtinFor(slashCommand);
    if (builtin && images.length === 0) {
      builtin.command.run(builtin.args);
      setText("");
      slash.close();
      return;
    }
    if (message.length > MAX_MESSAGE_CHARS) {
      setError(
        `The message is too long (${message.length.toLocaleString()} characters; the limit is ${MAX_MESSAGE_CHARS.toLocaleString()}).`,
      );
      return;
    }
    postToHost({
      type: "sendMessage",
      text: message,
      ...(images.length ? { images } : {}),
      ...(attachments.length ? { attachments } : {}),
      ...(worktree ? { worktree: worktreeChosen } : {}),
      ...(mode === "plan" || taskMode === "plan" ? { mode } : {}),
      ...(queue ? { queue } : {}),
    });
    setInWorktree(null);
    requestFollow();
    history.remember(message);
    setText("");
    clearImages();
    setError("");
    history.forget();
    mention.close();
    slash.close();
  };

  const slashShown = slash.open && !mention.open;
  return (
    <form
      className="composer"
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
      onDragOver={(event) => {
        if (Array.from(event.dataTransfer.types).includes("Files")) event.preventDefault();
      }}
      onDrop={onDrop}
    >
      {slashShown ? <SlashPicker id={SLASH_LIST_ID} picker={slash} /> : null}
      {mention.open ? <MentionPicker id={LIST_ID} picker={mention} /> : null}
      <ComposerChips chips={chips.attachments} />
      <textarea
        ref={box}
        id="message-input"
        className="text-input"
        aria-label="Message"
        aria-describedby="composer-hint"
        aria-autocomplete="list"
        aria-controls={mention.open ? LIST_ID : slash.open ? SLASH_LIST_ID : undefined}
        aria-activedescendant={
          mention.open && mention.items.length
            ? pickerOptionId(LIST_ID, mention.active)
            : slash.open && slash.items.length
              ? pickerOptionId(SLASH_LIST_ID, slash.active)
              : undefined
        }
        aria-invalid={error ? true : undefined}
        placeholder={
          running
            ? "Message Fathom: it reads it at its next step…"
            : "Ask Fathom to do something… @ mentions a file or @problems, / runs a command"
        }
        rows={3}
        value={text}
        onFocus={composing}
        onChange={(event) => {
          composing();
          setText(event.target.value);
          history.forget();
          mention.update(event.target.value, event.target.selectionStart);
          slash.update(event.target.value.slice(0, event.target.selectionStart));
        }}
        onSelect={(event) => {
          if (mention.open) mention.update(event.currentTarget.value, event.currentTarget.selectionStart);
          if (slash.open) slash.update(event.currentTarget.value.slice(0, event.currentTarget.selectionStart));
        }}
        onBlur={() => {
          mention.close();
          slash.close();
        }}
        onKeyDown={(event) => onComposerKeyDown(event, { text, slash, mention, history, send })}
        onPaste={onPaste}
      />
      <ImagesToSend images={images} onRemove={removeImage} />
      {error ? (
        <div className="composer-error" role="alert">
          {error}
        </div>
      ) : null}
      {chips.notice ? (
        <div className="composer-notice" role="status">
          {chips.notice}
        </div>
      ) : null}
      {worktree ? (
        <WorktreeOption worktree={worktree} checked={worktreeChosen} onChange={setInWorktree} sharedWith={sharedWith} />
      ) : null}
      <ComposerActions
        mode={mode}
        onMode={setChosenMode}
        running={running}
        hasContent={Boolean(text.trim()) || images.length > 0 || chips.attachments.length > 0}
        takesImages={Boolean(model.images)}
        onQueue={() => send(true)}
      />
    </form>
  );
}
