// A competent model making a one-line edit: read the file, replace the exact line, report.
import { after, call, expectText, resultOf, type ScenarioScript } from "../scripted";

const script: ScenarioScript = {
  wire: "anthropic",
  turns: [
    { toolCalls: [call("read_file", { file_path: "/src/greet.js" })] },
    after((_, request) => {
      expectText("read_file", resultOf(request, "read_file").text, /return `Hello, \$\{name\}\.`;/);
      return {
        toolCalls: [
          call("edit_file", {
            file_path: "/src/greet.js",
            old_string: "  return `Hello, ${name}.`;",
            new_string: "  return `Hello, ${name}!`;",
          }),
        ],
      };
    }),
    after((_, request) => {
      expectText("edit_file", resultOf(request, "edit_file").text, /^Edited \/src\/greet\.js/);
      return {
        text: "Done: `greet()` in `src/greet.js` now returns `Hello, ${name}!`, so `greet('Ada')` gives `'Hello, Ada!'`. `farewell()` is unchanged.",
      };
    }),
  ],
};
export default script;
