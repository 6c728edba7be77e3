import DOMPurify from "dompurify";
import { marked } from "marked";
import { useMemo } from "react";

/** Model text as markdown; DOMPurify removes any HTML that could run or load something. */
export function Markdown({ text }: { text: string }) {
  const html = useMemo(() => {
    const raw = marked.parse(text, { async: false, gfm: true, breaks: false });
    return DOMPurify.sanitize(raw, { USE_PROFILES: { html: true }, FORBID_TAGS: ["style", "form", "input"] });
  }, [text]);
  return <div className="markdown" dangerouslySetInnerHTML={{ __html: html }} />;
}
