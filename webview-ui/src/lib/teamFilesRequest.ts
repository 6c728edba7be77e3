import { postToHost } from "../vscodeApi";

let asked = false;

/**
 * Asks the host once for the team files (it reads them on first use, never at activation):
 * when the person starts writing, types `/`, or opens the Team files list. Changes come by
 * themselves after that (the host watches the files).
 */
export function askTeamFilesOnce(): void {
  if (asked) return;
  asked = true;
  postToHost({ type: "listTeamFiles" });
}
