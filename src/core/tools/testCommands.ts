/**
 * Test commands in a person's words: whether a command runs tests, whether a request asks for
 * tests to run or pass, and the command the person wrote for it. Shared by the middleware that
 * holds an answer until tests ran and the small-model task loop that runs them after each write.
 */

/** A command that names tests (`pytest`, `npm test`, `go test ./...`, `python test_x.py`) and does not merely show a file. */
export const runsTests = (command: string): boolean =>
  /test|spec\b|tox|nox/i.test(command) &&
  !/^\s*(cat|ls|head|tail|grep|rg|find|sed|less|more|wc|echo|stat|file)\b/.test(command);

/** The person asks for tests to be run or to pass. */
export const ASKS_FOR_TESTS =
  /\b(tests?|pytest|jest|vitest|spec)\b[^.\n]{0,60}\b(pass|passes|passing|green|run|succeed)\b|\b(run|make|get)\b[^.\n]{0,40}\btests?\b|`[^`\n]*\b(pytest|jest|vitest|mocha|(go|cargo|npm|pnpm|yarn)\s+(run\s+)?test)\b[^`\n]*`/i;

/** The test command the person wrote in backticks, if any. */
export function namedTestCommand(text: string): string | undefined {
  for (const [, inner] of text.matchAll(/`([^`\n]{1,200})`/g))
    if (inner && runsTests(inner) && /\s/.test(inner.trim())) return inner.trim();
  return undefined;
}
