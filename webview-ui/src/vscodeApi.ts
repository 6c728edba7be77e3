import { HostToWebviewSchema, parseMessage, type HostToWebview, type WebviewToHost } from "../../src/protocol";

interface VsCodeApi {
  postMessage(message: unknown): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

// acquireVsCodeApi may be called once per page load.
const api: VsCodeApi | undefined = typeof acquireVsCodeApi === "function" ? acquireVsCodeApi() : undefined;

export function postToHost(message: WebviewToHost): void {
  api?.postMessage(message);
}

/** Subscribes to validated host messages; invalid ones are reported to the console and dropped. */
export function onHostMessage(handler: (message: HostToWebview) => void): () => void {
  const listener = (event: MessageEvent<unknown>) => {
    const parsed = parseMessage(HostToWebviewSchema, event.data);
    if (!parsed.ok) {
      console.warn(`Fathom: dropped an invalid message from the host: ${parsed.error}`);
      return;
    }
    handler(parsed.message);
  };
  window.addEventListener("message", listener);
  return () => window.removeEventListener("message", listener);
}
