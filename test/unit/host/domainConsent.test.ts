// Issue 19, item 3 in VS Code: a connection to a domain nobody allowed is asked about once per
// domain per task (all of one command's connections share the question, a "no" too); "for this
// task" ends with the task; "always" is saved (at user level, by the host).
import { test } from "node:test";
import assert from "node:assert/strict";
import { DomainConsent, type DomainAnswer } from "../../../src/host/terminal/domainConsent";

function consent(answers: (DomainAnswer | undefined)[]) {
  const asked: string[] = [];
  const saved: string[] = [];
  let release: () => void = () => undefined;
  const gate = new Promise<void>((r) => (release = r));
  const c = new DomainConsent({
    ask: async (host) => {
      asked.push(host);
      await gate;
      return answers.shift();
    },
    remember: async (host) => void saved.push(host),
  });
  return { c, asked, saved, release };
}

test("many connections to one domain ask once, and share the answer", async () => {
  const { c, asked, release } = consent(["task"]);
  c.startTask("t1");
  const pending = [c.allows("registry.npmjs.org"), c.allows("registry.npmjs.org"), c.allows("REGISTRY.npmjs.org")];
  release();
  assert.deepEqual(await Promise.all(pending), [true, true, true]);
  assert.equal(await c.allows("registry.npmjs.org"), true);
  assert.deepEqual(asked, ["registry.npmjs.org"]);
});

test("a no holds for the task; a new task asks again; always is saved", async () => {
  const { c, asked, saved, release } = consent(["deny", "task", "always"]);
  release();
  c.startTask("t1");
  assert.equal(await c.allows("evil.example"), false);
  assert.equal(await c.allows("evil.example"), false, "asked again in the same task");
  c.startTask("t1");
  assert.equal(await c.allows("evil.example"), false, "a task that goes on keeps its answers");
  c.startTask("t2");
  assert.equal(await c.allows("evil.example"), true);
  assert.equal(await c.allows("github.com"), true);
  assert.deepEqual(asked, ["evil.example", "evil.example", "github.com"]);
  assert.deepEqual(saved, ["github.com"]);
});

test("a dismissed question, or one that failed, is a no", async () => {
  const { c, release } = consent([undefined]);
  release();
  c.startTask("t1");
  assert.equal(await c.allows("example.com"), false);
  const failing = new DomainConsent({
    ask: async () => Promise.reject(new Error("no window")),
    remember: async () => undefined,
  });
  assert.equal(await failing.allows("example.com"), false);
});
