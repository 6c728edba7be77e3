// A competent model fixing a failing test: run the tests, read the failure, read the code under
// test, fix the cause (an off-by-one in nightsBetween), run the tests again, report.
import { after, call, expectText, resultOf, type ScenarioScript } from "../scripted";

const script: ScenarioScript = {
  wire: "openai",
  turns: [
    { text: "Running the tests to see what fails.", toolCalls: [call("execute", { command: "npm test" })] },
    after((_, request) => {
      const out = resultOf(request, "execute").text;
      expectText("npm test", out, /not ok - three nights: Expected values to be strictly equal[\s\S]*\[Exit code: 1\]/);
      return {
        text: "`nightsBetween` returns one too many; the stay price follows from it. Reading the date code.",
        toolCalls: [call("read_file", { file_path: "/src/dates.js" })],
      };
    }),
    after((_, request) => {
      expectText("dates.js", resultOf(request, "read_file").text, /DAY_MS\) \+ 1;/);
      return {
        text: "The `+ 1` counts days, not nights: 1 to 4 March is 3 nights. Removing it.",
        toolCalls: [
          call("edit_file", {
            file_path: "/src/dates.js",
            old_string: "  return Math.round((parseDay(checkOut) - parseDay(checkIn)) / DAY_MS) + 1;",
            new_string: "  return Math.round((parseDay(checkOut) - parseDay(checkIn)) / DAY_MS);",
          }),
        ],
      };
    }),
    after((_, request) => {
      expectText("edit", resultOf(request, "edit_file").text, /^Edited/);
      return { toolCalls: [call("execute", { command: "npm test" })] };
    }),
    after((_, request) => {
      expectText("npm test", resultOf(request, "execute").text, /4 passed, 0 failed[\s\S]*\[Exit code: 0\]/);
      return {
        text: "Fixed. `nightsBetween` in `src/dates.js` added 1 to the difference in days, so it counted days instead of nights (1 to 4 March gave 4, not 3), and `stayPrice` charged one night too many. I removed the `+ 1`; the tests are unchanged and all 4 pass.",
      };
    }),
  ],
};
export default script;
