// A competent model creating a file: look at the style first, write the file, try it, report.
import { after, call, expectText, resultOf, type ScenarioScript } from "../scripted";

const CLAMP = `'use strict';

/** value limited to [min, max]; a RangeError when min > max. */
function clamp(value, min, max) {
  if (min > max) {
    throw new RangeError(\`clamp: min (\${min}) is greater than max (\${max})\`);
  }
  return Math.min(Math.max(value, min), max);
}

module.exports = { clamp };
`;

const script: ScenarioScript = {
  wire: "openai",
  turns: [
    {
      text: "I'll look at the project and at src/math.js for its style first.",
      toolCalls: [call("ls", { path: "/src" }), call("read_file", { file_path: "/src/math.js" })],
    },
    after(() => ({
      text: "Same style: `'use strict'`, a doc comment, `module.exports`.",
      toolCalls: [call("write_file", { file_path: "/src/clamp.js", content: CLAMP })],
    })),
    after((_, request) => {
      expectText("write_file", resultOf(request, "write_file").text, /^Created \/src\/clamp\.js/);
      return {
        toolCalls: [
          call("execute", {
            command: `node -e "const { clamp } = require('./src/clamp'); console.log(clamp(5, 0, 3), clamp(-1, 0, 3), clamp(2, 0, 3)); try { clamp(1, 3, 0) } catch (e) { console.log(e.name) }"`,
          }),
        ],
      };
    }),
    after((_, request) => {
      expectText("the try-out", resultOf(request, "execute").text, /3 0 2\nRangeError[\s\S]*\[Exit code: 0\]/);
      return {
        text: "Added `src/clamp.js` with `clamp(value, min, max)`: it returns `value` limited to `[min, max]` and throws a `RangeError` when `min > max`, written like `src/math.js` (`'use strict'`, CommonJS export). A quick run gave 3, 0 and 2 for 5, -1 and 2 in [0, 3], and a RangeError for min 3 > max 0.",
      };
    }),
  ],
};
export default script;
