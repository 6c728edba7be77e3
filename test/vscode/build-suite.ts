// Builds test-output/build/suite/suite.js (the in-host suite bundle) and, with --runner, the
// code-server test-runner vsix. Used by the "In-host tests" launch configuration.
import { buildRunnerVsix, buildSuite } from "./harness/buildSuite.js";

(process.argv.includes("--runner") ? buildRunnerVsix() : buildSuite()).then(
  (file) => console.log(`built ${file}`),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
