import type { ReviewFindingView } from "../../../src/protocol";
import { postToHost } from "../vscodeApi";

const SEVERITY: Record<ReviewFindingView["severity"], { label: string; icon: string }> = {
  bug: { label: "Bug", icon: "bug" },
  risk: { label: "Risk", icon: "warning" },
  nit: { label: "Nit", icon: "info" },
};

/** A review's findings under its summary: severity, the place (a link that opens it in the editor), the title. */
export function ReviewFindings({ findings }: { findings: ReviewFindingView[] }) {
  if (findings.length === 0) return null;
  return (
    <ol className="review-findings" aria-label="Findings">
      {findings.map((f, i) => {
        const severity = SEVERITY[f.severity];
        return (
          <li key={i} className={`review-finding severity-${f.severity}`}>
            <span className="review-severity">
              <span className={`codicon codicon-${severity.icon}`} aria-hidden="true" />
              {severity.label}
            </span>
            {f.path ? (
              <button
                type="button"
                className="link-button review-place"
                title={`Open ${f.place}`}
                onClick={() => postToHost({ type: "openAttachment", path: f.path!, line: f.line })}
              >
                {f.place}
              </button>
            ) : (
              <code className="review-place">{f.place}</code>
            )}
            <span className="review-title">{f.title}</span>
            {f.fix ? <span className="review-fix">fix suggested</span> : null}
          </li>
        );
      })}
    </ol>
  );
}
