// Reading web pages (`web_fetch`): a DOM (linkedom), Mozilla's Readability to find the page's
// article, and turndown (with GitHub-flavoured tables) to write it as markdown. In a bundle of
// their own for the extension (see ./libraries.ts).
export { parseHTML } from "linkedom";
export { Readability } from "@mozilla/readability";
export { default as TurndownService } from "turndown";
export { gfm } from "@joplin/turndown-plugin-gfm";
