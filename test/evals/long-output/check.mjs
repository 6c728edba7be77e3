import { answer, expect, unchanged } from "../checks.mjs";

const text = answer();
expect(/module-13579/.test(text), "the answer does not name module-13579");
expect(/legacy\/parser/.test(text), "the answer does not say it cannot resolve ./legacy/parser");
unchanged("package.json", "scripts/build-report.js");
