import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from "react";
import {
  MAX_MESSAGE_CHARS,
  parseSlashCommand,
  type ChatState,
  type TaskMode,
  type TeamFilesView,
} from "../../../src/protocol";
import { ModeSwitch } from "./ModeSwitch";
import { useImageAttachments } from "../lib/useImageAttachments";
import type { MentionResults, ViewState } from "../state/chatReducer";
import { ComposerChips } from "./AttachmentChips";
import { postToHost } from "../vscodeApi";
import { MentionPicker, mentionOptionId } from "./MentionPicker";
import { requestFollow } from "../lib/follow";
import { builtinFor } from "../lib/builtinCommands";
import { askTeamFilesOnce } from "../lib/teamFilesRequest";
import { SlashPicker, slashOptionId, useSlashPicker } from "./SlashPicker";

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

interface Mention {
  start: number;
  query: string;
  requestId: number;
}

const MENTION_BEFORE_CARET = /(^|\s)@([^\s@]*)$/;
const LIST_ID = "mention-list";
const SLASH_LIST_ID = "slash-list";

/** The message box: Enter sends, Shift+Enter is a new line, Up recalls, `@` mentions a file, a pasted or dropped image is attached. */
/** The `@problems` pick: the workspace's errors and warnings as a chip. */
const PROBLEMS_OPTION = { path: "@problems", special: "problems" as const };
const NO_CHIPS: ViewState["chips"] = { attachments: [], focusSeq: 0 };

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
  const [text, setText] = useState("");
  const [chosenMode, setChosenMode] = useState<TaskMode | null>(null);
  const mode = chosenMode ?? taskMode;
  // The task changed mode (a plan was started, another task opened): the switch follows it.
  useEffect(() => setChosenMode(null), [taskMode]);
  const [inWorktree, setInWorktree] = useState<boolean | null>(null);
  const worktreeChosen = worktree?.available ? (inWorktree ?? worktree.byDefault) : false;
  const [error, setError] = useState("");
  const { images, clear: clearImages, remove: removeImage, onPaste, onDrop } = useImageAttachments(model, setError);
  const [recall, setRecall] = useState<{ index: number; draft: string } | null>(null);
  const [mention, setMention] = useState<Mention | null>(null);
  const [active, setActive] = useState(0);
  const slash = useSlashPicker(commands);
  const box = useRef<HTMLTextAreaElement>(null);
  const nextRequest = useRef(1);
  const ownSent = useRef<string[]>([]);
  // Where the caret goes once the new text is in the DOM. Set in the same commit (not in a
  // later frame), so a key pressed right after a recall sees the caret where it belongs.
  const caretAfterRender = useRef<number | null>(null);
  useLayoutEffect(() => {
    if (caretAfterRender.current === null) return;
    box.current?.setSelectionRange(caretAfterRender.current, caretAfterRender.current);
    caretAfterRender.current = null;
  });
  // Edit and resend: the message's text comes back to be changed, the caret at its end.
  useEffect(() => {
    if (!fill) return;
    setText(fill.text);
    caretAfterRender.current = fill.text.length;
    box.current?.focus();
  }, [fill?.seq]);
  // A command brought the person here (Add Selection to Chat, Focus Chat): the caret goes to the box.
  useEffect(() => {
    if (chips.focusSeq > 0) box.current?.focus();
  }, [chips.focusSeq]);
  const history = [...sent, ...ownSent.current.filter((t) => !sent.includes(t))];

  const found = mention && mentions?.requestId === mention.requestId ? mentions.files.slice(0, 50) : [];
  const offerProblems =
    mention !== null && mention.query.length <= "problems".length && "problems".startsWith(mention.query.toLowerCase());
  const files: { path: string; isDir?: boolean; resource?: { server: string; name: string }; special?: "problems" }[] =
    offerProblems ? [PROBLEMS_OPTION, ...found] : found;
  const pickerOpen = mention !== null;

  // Ask the host for matching files a moment after the query stops changing.
  useEffect(() => {
    if (!mention) return;
    const timer = setTimeout(
      () => postToHost({ type: "searchFiles", requestId: mention.requestId, query: mention.query.slice(0, 500) }),
      60,
    );
    return () => clearTimeout(timer);
  }, [mention]);

  // Says once in a while that the person is writing, so the host gets a first task's needs ready.
  const composingSaidAt = useRef(0);
  const composing = () => {
    if (running || Date.now() - composingSaidAt.current < 20_000) return;
    composingSaidAt.current = Date.now();
    postToHost({ type: "composing" });
    askTeamFilesOnce();
  };

  const updateMention = (value: string, caret: number) => {
    const match = MENTION_BEFORE_CARET.exec(value.slice(0, caret));
    if (!match) return setMention(null);
    const query = match[2] ?? "";
    const start = caret - query.length - 1;
    if (mention && mention.start === start && mention.query === query) return;
    setMention({ start, query, requestId: nextRequest.current++ });
    setActive(0);
  };

  /** A picked command goes in as `/name `, the caret after it, for its arguments. */
  const insertCommand = (index: number) => {
    const picked = slash.options[index];
    if (!picked) return;
    const rest = text.replace(/^\/\S*\s?/, "");
    const value = `/${picked.name} ${rest}`;
    setText(value);
    slash.close();
    caretAfterRender.current = picked.name.length + 2;
  };

  const insertMention = (index: number) => {
    const file = files[index];
    if (!mention || !file) return;
    const end = mention.start + 1 + mention.query.length;
    if (file.special === "problems") {
      // Not text: the host adds the problems as a chip, and the `@…` typed goes.
      setText(text.slice(0, mention.start) + text.slice(end));
      setMention(null);
      caretAfterRender.current = mention.start;
      postToHost({ type: "attachProblems" });
      return;
    }
    const inserted = `@${file.path} `;
    const value = text.slice(0, mention.start) + inserted + text.slice(end);
    setText(value);
    setMention(null);
    const caret = mention.start + inserted.length;
    caretAfterRender.current = caret;
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
    if (message && history[history.length - 1] !== message) ownSent.current.push(message);
    setText("");
    clearImages();
    setError("");
    setRecall(null);
    setMention(null);
    slash.close();
  };

  const recallAt = (index: number, draft: string) => {
    const value = index >= history.length ? draft : (history[index] ?? "");
    setRecall(index >= history.length ? null : { index, draft });
    setText(value);
    caretAfterRender.current = value.length;
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.nativeEvent.isComposing) return;
    const el = event.currentTarget;
    if (slash.open && !pickerOpen) {
      const n = slash.options.length;
      if ((event.key === "ArrowDown" || event.key === "ArrowUp") && n) {
        event.preventDefault();
        slash.setActive((slash.active + (event.key === "ArrowDown" ? 1 : n - 1)) % n);
        return;
      }
      // Enter on a command already typed in full sends it; otherwise it completes the pick.
      const typed = text.trim().slice(1).toLowerCase();
      if (
        (event.key === "Tab" || (event.key === "Enter" && slash.options[slash.active]?.name.toLowerCase() !== typed)) &&
        !event.shiftKey &&
        n
      ) {
        event.preventDefault();
        insertCommand(slash.active);
        return;
      }
      if (event.key === "Escape") {
        event.preventDefault();
        slash.close();
        return;
      }
    }
    if (pickerOpen) {
      if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        event.preventDefault();
        if (files.length) setActive((active + (event.key === "ArrowDown" ? 1 : files.length - 1)) % files.length);
        return;
      }
      if ((event.key === "Enter" || event.key === "Tab") && !event.shiftKey && files.length) {
        event.preventDefault();
        insertMention(active);
        return;
      }
      if (event.key === "Escape") {
        event.preventDefault();
        setMention(null);
        return;
      }
    }
    if (event.key === "Enter" && !event.shiftKey) {
      event.preventDefault();
      send();
      return;
    }
    const caret = el.selectionStart;
    const collapsed = caret === el.selectionEnd;
    if (event.key === "ArrowUp" && collapsed && !text.slice(0, caret).includes("\n") && (text === "" || recall)) {
      const index = (recall?.index ?? history.length) - 1;
      if (index >= 0) {
        event.preventDefault();
        recallAt(index, recall?.draft ?? text);
      }
    } else if (event.key === "ArrowDown" && recall && collapsed && !text.slice(caret).includes("\n")) {
      event.preventDefault();
      recallAt(recall.index + 1, recall.draft);
    }
  };

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
      {slash.open && !pickerOpen ? (
        <SlashPicker
          id={SLASH_LIST_ID}
          options={slash.options}
          active={slash.active}
          loading={slash.loading}
          onPick={insertCommand}
        />
      ) : null}
      {pickerOpen ? (
        <MentionPicker
          id={LIST_ID}
          files={files}
          active={active}
          loading={mentions?.requestId !== mention.requestId}
          onPick={insertMention}
        />
      ) : null}
      <ComposerChips chips={chips.attachments} />
      <textarea
        ref={box}
        id="message-input"
        className="text-input"
        aria-label="Message"
        aria-describedby="composer-hint"
        aria-autocomplete="list"
        aria-controls={pickerOpen ? LIST_ID : slash.open ? SLASH_LIST_ID : undefined}
        aria-activedescendant={
          pickerOpen && files.length
            ? mentionOptionId(LIST_ID, active)
            : slash.open && slash.options.length
              ? slashOptionId(SLASH_LIST_ID, slash.active)
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
          setRecall(null);
          updateMention(event.target.value, event.target.selectionStart);
          slash.update(event.target.value.slice(0, event.target.selectionStart));
        }}
        onSelect={(event) => {
          if (mention) updateMention(event.currentTarget.value, event.currentTarget.selectionStart);
          if (slash.open) slash.update(event.currentTarget.value.slice(0, event.currentTarget.selectionStart));
        }}
        onBlur={() => {
          setMention(null);
          slash.close();
        }}
        onKeyDown={onKeyDown}
        onPaste={onPaste}
      />
      {images.length ? (
        <ul className="image-thumbnails composer-images" aria-label="Images to send">
          {images.map((image, i) => (
            <li key={i}>
              <img src={image.thumbnail} alt={`Image ${i + 1} to send`} />
              <button
                type="button"
                className="icon-button image-remove"
                aria-label={`Remove image ${i + 1}`}
                title="Remove this image"
                onClick={() => removeImage(i)}
              >
                <span className="codicon codicon-close" aria-hidden="true" />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
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
        <div className="composer-worktree">
          <label
            title={
              worktree.available
                ? "Runs on a new branch fathom/<title> in a folder of its own: your working tree is untouched until you Apply"
                : worktree.reason
            }
          >
            <input
              type="checkbox"
              checked={worktreeChosen}
              disabled={!worktree.available}
              onChange={(event) => setInWorktree(event.target.checked)}
            />
            <span className="codicon codicon-git-branch" aria-hidden="true" /> Worktree
          </label>
          {/* Why not, said where it matters (another task shares the folder), else on hover and to screen readers. */}
          {sharedWith > 0 && !worktreeChosen ? (
            <span className="composer-worktree-why" role="note">
              {sharedWith === 1 ? "Another task is" : `${sharedWith} other tasks are`} running in this folder: their
              edits may collide with this one's.
              {!worktree.available && worktree.reason ? ` ${worktree.reason}` : ""}
            </span>
          ) : !worktree.available && worktree.reason ? (
            <span className="visually-hidden">{worktree.reason}</span>
          ) : null}
        </div>
      ) : null}
      <div className="composer-row">
        <ModeSwitch mode={mode} onChange={setChosenMode} />
        <span className="composer-hint" id="composer-hint">
          Enter to send, Shift+Enter for a new line, Up for earlier messages
          {model.images ? ", paste or drop an image" : ""}
        </span>
        {running && (text.trim() || images.length > 0 || chips.attachments.length > 0) ? (
          <>
            <button
              type="submit"
              className="button secondary"
              title="Send now (Enter): the agent reads it at its next step (a running command finishes first; an answer being written stops)"
            >
              <span className="codicon codicon-send" aria-hidden="true" />
              Send now
            </button>
            <button
              type="button"
              className="button secondary"
              title="Queue: send it when the task ends"
              onClick={() => send(true)}
            >
              <span className="codicon codicon-list-ordered" aria-hidden="true" />
              Queue
            </button>
          </>
        ) : null}
        {running ? (
          <button
            type="button"
            className="button primary"
            onClick={() => postToHost({ type: "cancel" })}
            title="Stop the running task"
          >
            <span className="codicon codicon-debug-stop" aria-hidden="true" />
            Cancel
          </button>
        ) : (
          <button
            type="submit"
            className="button primary"
            disabled={!text.trim() && images.length === 0 && chips.attachments.length === 0}
            title="Send (Enter)"
          >
            <span className="codicon codicon-send" aria-hidden="true" />
            Send
          </button>
        )}
      </div>
    </form>
  );
}
