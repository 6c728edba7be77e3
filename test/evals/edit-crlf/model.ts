// A competent model editing a CRLF file: it sees plain lines in read_file and sends an
// old_string with "\n" line breaks across three lines (port = 8080 occurs once, but the section
// makes the intent plain); the backend matches it and keeps the file's CRLF endings.
import { after, call, expectText, resultOf, type ScenarioScript } from "../scripted";

const script: ScenarioScript = {
  wire: "openai",
  turns: [
    { text: "Reading the settings file.", toolCalls: [call("read_file", { file_path: "/config/settings.ini" })] },
    after((_, request) => {
      expectText(
        "read_file",
        resultOf(request, "read_file").text,
        /\[server\]\s*\n\s*5\thost = 127\.0\.0\.1\s*\n\s*6\tport = 8080/,
      );
      return {
        text: "The server section's port is on line 6.",
        toolCalls: [
          call("edit_file", {
            file_path: "/config/settings.ini",
            old_string: "[server]\nhost = 127.0.0.1\nport = 8080",
            new_string: "[server]\nhost = 127.0.0.1\nport = 9090",
          }),
        ],
      };
    }),
    after((_, request) => {
      expectText("edit_file", resultOf(request, "edit_file").text, /^Edited \/config\/settings\.ini/);
      return {
        text: "Changed the `[server]` port in `config/settings.ini` from 8080 to 9090. The `[admin]` port (8081) is unchanged, and the file keeps its Windows line endings.",
      };
    }),
  ],
};
export default script;
