// The bundle's entry (dist/action.js): the runner starts it with its own Node and reads the exit code.
import { runAction } from "./main";

runAction(process.env, (text) => process.stdout.write(text)).then(
  (code) => process.stdout.write("", () => process.exit(code)),
  (error: unknown) => {
    // A bug, not an outcome: the message only (a stack could quote a secret from a variable).
    process.stdout.write(
      `::error::Fathom's action failed unexpectedly: ${(error as Error)?.message ?? String(error)}\n`,
      () => process.exit(1),
    );
  },
);
