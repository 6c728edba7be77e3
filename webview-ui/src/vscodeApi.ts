import {
  HostToWebviewChatSchema,
  parseMessage,
  type HostToWebviewChat,
  type WebviewToHostChat,
} from "../../src/protocol";
import { parseStateMessage } from "./state/restoreState";

interface VsCodeApi {
  postMessage(message: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

// acquireVsCodeApi may be called once per page load.
const api: VsCodeApi | undefined = typeof acquireVsCodeApi === "function" ? acquireVsCodeApi() : undefined;

/** Sends an intent to the host. The host validates it again; we only send what the types allow. */
export function postToHost(message: WebviewToHostChat): void {
  api?.postMessage(message);
}

/**
 * Subscribes to validated host messages; invalid ones are reported to the console and dropped.
 * A `state` comes with its newest items validated and `older` ones still to check (see
 * restoreState.ts), so a long transcript paints at once.
 */
export function onHostMessage(handler: (message: HostToWebviewChat, older?: unknown[]) => void): () => void {
  const listener = (event: MessageEvent<unknown>) => {
    const data = event.data as { type?: unknown } | null;
    if (typeof data === "object" && data !== null && data.type === "state") {
      const state = parseStateMessage(data);
      if (!state.ok) console.warn(`Fathom: dropped an invalid message from the host: ${state.error}`);
      else handler({ type: "state", state: state.parsed.state }, state.parsed.older);
      return;
    }
    const parsed = parseMessage(HostToWebviewChatSchema, event.data);
    if (!parsed.ok) {
      console.warn(`Fathom: dropped an invalid message from the host: ${parsed.error}`);
      return;
    }
    handler(parsed.message);
  };
  window.addEventListener("message", listener);
  return () => window.removeEventListener("message", listener);
}
