import { TextDecoder } from "node:util";
import { webPageLib } from "../vendor/libraries";

/** What is used of linkedom's elements (the core is built without the DOM's types). */
interface PageElement {
  textContent: string | null;
  innerHTML: string;
  childNodes: ArrayLike<PageElement>;
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  remove(): void;
  querySelectorAll(selector: string): ArrayLike<PageElement>;
  closest(selector: string): PageElement | null;
}
interface PageDocument {
  body: PageElement | null;
  querySelector(selector: string): PageElement | null;
  querySelectorAll(selector: string): ArrayLike<PageElement>;
}

/**
 * A fetched body as text for the model: decoded by its charset (the header's, else an HTML
 * page's own `<meta charset>`, else UTF-8; bytes that do not decode become U+FFFD and are
 * counted), and an HTML page turned into markdown of its readable part.
 */
export function decodeBody(body: Buffer, contentType: string): { text: string; charset: string; invalid: number } {
  const declared =
    /charset=["']?([\w.:-]+)/i.exec(contentType)?.[1] ?? (isHtml(contentType, body) ? metaCharset(body) : undefined);
  let decoder: TextDecoder;
  let charset = (declared ?? "utf-8").toLowerCase();
  try {
    decoder = new TextDecoder(charset);
  } catch {
    charset = "utf-8";
    decoder = new TextDecoder("utf-8");
  }
  const text = decoder.decode(body);
  // U+FFFD the page did not contain itself: bytes that did not decode.
  const invalid =
    countOf(text, "\uFFFD") - (charset === "utf-8" ? countOf(body.toString("latin1"), "\xEF\xBF\xBD") : 0);
  return { text, charset, invalid: Math.max(0, invalid) };
}

export function isHtml(contentType: string, body?: Buffer): boolean {
  if (/html|xhtml/i.test(contentType)) return true;
  if (contentType.trim() !== "") return false;
  const start = body?.subarray(0, 512).toString("latin1").trimStart().toLowerCase() ?? "";
  return start.startsWith("<!doctype html") || start.startsWith("<html");
}

function metaCharset(body: Buffer): string | undefined {
  const head = body.subarray(0, 2048).toString("latin1");
  return /<meta[^>]+charset=["']?([\w.:-]+)/i.exec(head)?.[1];
}

function countOf(text: string, part: string): number {
  let count = 0;
  for (let i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + part.length)) count++;
  return count;
}

/** Text of a page converted at most (about ten windows of web_fetch): the time to convert stays bounded. */
export const MAX_CONVERTED_CHARS = 200_000;

/**
 * The page's article (Mozilla's Readability on a linkedom DOM; the whole body when it finds
 * none) as markdown (turndown, GitHub-flavoured tables), links made absolute to `url`. Text past
 * MAX_CONVERTED_CHARS is left out before (`cut`), so a huge page converts as fast as a long one.
 */
export function htmlToMarkdown(html: string, url: string): { title: string; markdown: string; cut: boolean } {
  const { parseHTML, Readability, TurndownService, gfm } = webPageLib();
  const document = parseHTML(html).document as unknown as PageDocument;
  for (const el of Array.from(document.querySelectorAll("script, style, noscript, template, iframe, svg"))) el.remove();
  for (const a of Array.from(document.querySelectorAll("a[href]")))
    a.setAttribute("href", absolute(a.getAttribute("href")!, url));
  for (const img of Array.from(document.querySelectorAll("img[src]")))
    img.setAttribute("src", absolute(img.getAttribute("src")!, url));
  const title = (document.querySelector("title")?.textContent ?? "").trim();
  const cut = document.body ? keepText(document.body, MAX_CONVERTED_CHARS) <= 0 : false;
  let content: string | undefined;
  try {
    // Readability changes the document it reads; the body is taken before when it finds nothing.
    const fallback = document.body?.innerHTML ?? html;
    const article = new Readability(document as unknown as ConstructorParameters<typeof Readability>[0], {
      charThreshold: 200,
    }).parse();
    content = article?.content?.trim() ? article.content : fallback;
  } catch {
    content = document.body?.innerHTML ?? html;
  }
  const turndown = new TurndownService({ headingStyle: "atx", codeBlockStyle: "fenced", bulletListMarker: "-" });
  turndown.use(gfm);
  // Turndown gets a linkedom node, not a string: given a string it would parse it with a DOM of
  // its own (domino), which the extension's build leaves out (scripts/esbuildPlugins.mjs).
  const body = (
    parseHTML(`<!doctype html><html><body>${content ?? ""}</body></html>`).document as unknown as PageDocument
  ).body;
  if (body) withTableRows(body);
  const markdown = turndown
    .turndown(body as unknown as Parameters<typeof turndown.turndown>[0])
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  return { title, markdown, cut };
}

/**
 * linkedom's tables have no `rows`, which the GitHub-flavoured table rules read. Its elements share
 * one class, so the getter goes on that class (turndown works on a clone of the node it is given):
 * a table's `tr`s not inside a table within it, as a browser lists them; undefined on other elements.
 */
function withTableRows(root: PageElement): void {
  const proto = Object.getPrototypeOf(root) as object;
  if ("rows" in proto) return;
  Object.defineProperty(proto, "rows", {
    configurable: true,
    get(this: PageElement & { nodeName: string }) {
      if (this.nodeName !== "TABLE") return undefined;
      return Array.from(this.querySelectorAll("tr")).filter((tr) => tr.closest("table") === this);
    },
  });
}

/** Removes the nodes past the first `budget` characters of text; returns the budget left. */
function keepText(parent: PageElement, budget: number): number {
  for (const child of Array.from(parent.childNodes)) {
    if (budget <= 0) {
      child.remove();
      continue;
    }
    const length = (child.textContent ?? "").length;
    budget = length <= budget ? budget - length : keepText(child, budget);
  }
  return budget;
}

function absolute(href: string, base: string): string {
  try {
    return new URL(href, base).href;
  } catch {
    return href;
  }
}
