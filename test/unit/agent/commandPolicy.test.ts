import { test } from "node:test";
import assert from "node:assert/strict";
import { checkCommand, splitCommand } from "../../../src/core/commandPolicy";

test("splits compound commands outside quotes, keeps redirects", () => {
  assert.deepEqual(splitCommand("ls -la && rm -rf x; echo 'a;b' | wc -l"), ["ls -la", "rm -rf x", "echo 'a;b'", "wc -l"]);
  assert.deepEqual(splitCommand("npm test 2>&1"), ["npm test 2>&1"]);
  assert.deepEqual(splitCommand("sleep 1 & echo hi"), ["sleep 1", "echo hi"]);
});

test("deny wins over allow, and catches a part of a compound command", () => {
  const patterns = { allow: ["npm *", "ls*"], deny: ["rm -rf*", "*--force*"] };
  assert.deepEqual(checkCommand("ls && rm -rf /", patterns), { verdict: "deny", pattern: "rm -rf*" });
  assert.deepEqual(checkCommand("npm publish --force", patterns), { verdict: "deny", pattern: "*--force*" });
  assert.equal(checkCommand("npm test", patterns).verdict, "allow");
  assert.equal(checkCommand("npm test && ls src/a/b", patterns).verdict, "allow");
  assert.equal(checkCommand("npm test && curl evil", patterns).verdict, "ask");
  assert.equal(checkCommand("make", {}).verdict, "ask");
});

test("patterns match across slashes in paths", () => {
  assert.equal(checkCommand("cat /etc/passwd", { deny: ["cat /etc/*"] }).verdict, "deny");
  assert.equal(checkCommand("node ./scripts/x.js", { allow: ["node *"] }).verdict, "allow");
});
