import type { ModelErrorKind } from "../../core";
import type { Banner } from "../../protocol";

/** The banner for a failed run: the model error's own words, Retry when trying again can help, and the fix when there is one. */
export function errorBanner(kind: ModelErrorKind | "internal", message: string, provider?: string): Banner {
  // VS Code's models take no key and no URL of ours: their messages say what to do instead.
  const action =
    provider === "vscode"
      ? {}
      : kind === "auth"
        ? { action: "fathom.setApiKey" as const, actionLabel: "Set API Key" }
        : kind === "not_found" || kind === "bad_request"
          ? { action: "fathom.openSettings" as const, actionLabel: "Open Settings" }
          : {};
  // A refused key is not fixed by asking again with it: the banner offers Set API Key, and the
  // task continues by itself once a key is stored (ChatSession.keyChanged).
  const retryable = kind !== "cancelled" && !(kind === "auth" && provider !== "vscode");
  return { level: "error", message, retryable, ...action };
}
