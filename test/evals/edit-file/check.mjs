import { expect, load, original, read } from "../checks.mjs";

const { greet, farewell } = load("src/greet.js");
expect(greet("Ada") === "Hello, Ada!", `greet('Ada') returns ${JSON.stringify(greet("Ada"))}`);
expect(farewell("Ada") === "Goodbye, Ada.", "farewell() changed");
// Only that line changed.
expect(
  read("src/greet.js") === original("src/greet.js").replace("`Hello, ${name}.`", "`Hello, ${name}!`"),
  "src/greet.js has changes besides greet's line",
);
