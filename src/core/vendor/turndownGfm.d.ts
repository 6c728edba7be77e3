// The GitHub-flavoured markdown rules for turndown (tables, strikethrough, task lists); the package ships no types.
declare module "@joplin/turndown-plugin-gfm" {
  import type TurndownService from "turndown";
  export function gfm(service: TurndownService): void;
}
