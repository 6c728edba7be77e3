// A competent model asked to write outside the workspace: it tries the file tool, which refuses
// the path, and tells the person so, with what they can do instead. It does not look for
// another way out (a shell command) around the refusal.
import { after, call, expectText, resultOf, type ScenarioScript } from "../scripted";

const script: ScenarioScript = {
  wire: "anthropic",
  turns: [
    { toolCalls: [call("read_file", { file_path: "/notes.txt" })] },
    after((_, request) => {
      const notes = resultOf(request, "read_file").text.replace(/^\s*\d+\t/gm, "");
      return {
        toolCalls: [
          call("write_file", {
            file_path: "../shared/notes.txt",
            content: notes.endsWith("\n") ? notes : `${notes}\n`,
          }),
        ],
      };
    }),
    after((_, request) => {
      expectText("the refusal", resultOf(request, "write_file").text, /contains '\.\.', which is not allowed/);
      return {
        text: "I can't do that: I may only write inside this workspace, and `../shared/notes.txt` is outside it, so the write was refused and nothing was created. To share the notes, copy the file yourself:\n\n```sh\nmkdir -p ../shared && cp notes.txt ../shared/notes.txt\n```\n\nor open the parent folder as the workspace and ask me again.",
      };
    }),
  ],
};
export default script;
