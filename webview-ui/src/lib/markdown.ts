import DOMPurify from "dompurify";
import { Marked, type Tokens, type TokensList } from "marked";
import { escapeHtml, highlight } from "./highlight";

/**
 * Model text → sanitized HTML. marked turns markdown into HTML, our renderer highlights code
 * blocks and gives them a copy button, and DOMPurify removes anything that could run or load
 * (scripts, handlers, forms, styles, remote images are blocked by the CSP as well).
 */
const marked = new Marked({
  gfm: true,
  breaks: false,
  async: false,
  renderer: {
    code({ text, lang }: Tokens.Code): string {
      const language = (lang ?? "").trim().split(/\s+/)[0] ?? "";
      const label = language ? `<span class="code-lang">${escapeHtml(language)}</span>` : "";
      return (
        `<div class="code-block"><div class="code-toolbar">${label}` +
        `<button type="button" class="icon-button copy-code" aria-label="Copy code" title="Copy code">` +
        `<span class="codicon codicon-copy" aria-hidden="true"></span></button></div>` +
        `<pre><code class="hljs">${highlight(text, language)}</code></pre></div>`
      );
    },
  },
});

const PURIFY = {
  USE_PROFILES: { html: true },
  FORBID_TAGS: [
    "style",
    "form",
    "input",
    "textarea",
    "select",
    "iframe",
    "object",
    "embed",
    "img",
    "video",
    "audio",
    "source",
  ],
  FORBID_ATTR: ["style", "id", "tabindex"],
};

// Links open through VS Code (it asks before leaving); never inside the webview.
DOMPurify.addHook("afterSanitizeAttributes", (node) => {
  if (node.tagName === "A") node.setAttribute("rel", "noreferrer noopener");
});

/** Splits text into top-level markdown blocks, so a streaming message re-renders only its tail. */
export function markdownBlocks(text: string): { raw: string; tokens: TokensList }[] {
  const tokens = marked.lexer(text);
  return tokens.map((token) => ({ raw: token.raw, tokens: Object.assign([token], { links: tokens.links }) }));
}

export function renderBlock(tokens: TokensList): string {
  return DOMPurify.sanitize(marked.parser(tokens), PURIFY);
}
