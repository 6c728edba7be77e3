import type { UserItem } from "../../../src/protocol";
import { postToHost } from "../vscodeApi";
import { SentChips } from "./AttachmentChips";
import { IconButton } from "./IconButton";

export function UserMessage({ item }: { item: UserItem }) {
  return (
    <article className="message user" aria-label="You">
      <div className="author">
        <span className="codicon codicon-account" aria-hidden="true" />
        You{item.queued ? <span className="tag">queued</span> : null}
        {item.steered ? (
          <span className="tag" title="Sent while the task ran: the agent read it here">
            sent while it worked
          </span>
        ) : null}
        {item.queued || item.steered ? null : (
          <span className="message-actions">
            <IconButton
              icon="edit"
              title="Edit and resend: the conversation goes back to before this message"
              label="Edit this message"
              onClick={() => postToHost({ type: "editMessage", itemId: item.id })}
            />
            <IconButton
              icon="discard"
              title="Restore files or conversation to before this message"
              label="Restore to before this message"
              onClick={() => postToHost({ type: "previewRestore", itemId: item.id })}
            />
          </span>
        )}
      </div>
      {item.images?.length ? (
        <ul className="image-thumbnails" aria-label="Attached images">
          {item.images.map((image, i) => (
            <li key={i}>
              <img src={image.thumbnail} alt={`Attached image ${i + 1}`} />
            </li>
          ))}
        </ul>
      ) : null}
      {item.text ? <p className="user-text">{item.text}</p> : null}
      {item.attachments?.length ? <SentChips attachments={item.attachments} /> : null}
    </article>
  );
}
