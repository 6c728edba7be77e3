import type { Banner } from "../../../src/protocol";
import { postToHost } from "../vscodeApi";

/** A provider error (or warning) with its reason, "Retry" and the fix, when there is one. */
export function BannerView({ banner }: { banner: Banner }) {
  const { action } = banner;
  return (
    <div className={`banner ${banner.level}`} role={banner.level === "error" ? "alert" : "status"}>
      <span className={`codicon codicon-${banner.level}`} aria-hidden="true" />
      <span className="banner-message">{banner.message}</span>
      <span className="banner-actions">
        {action ? (
          <button
            type="button"
            className="button secondary"
            onClick={() => postToHost({ type: "runCommand", command: action })}
          >
            {banner.actionLabel ?? (action === "fathom.setApiKey" ? "Set API Key" : "Open Settings")}
          </button>
        ) : null}
        {banner.retryable ? (
          <button type="button" className="button primary" onClick={() => postToHost({ type: "retry" })}>
            <span className="codicon codicon-refresh" aria-hidden="true" />
            Retry
          </button>
        ) : null}
      </span>
    </div>
  );
}
