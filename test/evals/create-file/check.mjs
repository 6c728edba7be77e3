import { expect, load, unchanged } from "../checks.mjs";

const { clamp } = load("src/clamp.js");
expect(typeof clamp === "function", "src/clamp.js does not export clamp");
expect(clamp(5, 0, 3) === 3, "clamp(5, 0, 3) is not 3");
expect(clamp(-1, 0, 3) === 0, "clamp(-1, 0, 3) is not 0");
expect(clamp(2, 0, 3) === 2, "clamp(2, 0, 3) is not 2");
let threw;
try {
  clamp(1, 3, 0);
} catch (error) {
  threw = error;
}
expect(threw instanceof RangeError, "clamp(1, 3, 0) does not throw a RangeError");
unchanged("src/math.js", "package.json");
