// Generate Commit Message's decisions, with fakes of VS Code's git extension (the real one is
// in the in-host suite and the end-to-end test): where the git API comes from and what stops
// it, which repository, what a commit would hold, and the Source Control box while the
// message streams in (restored on cancel and failure, left alone once the person types).
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { ModelError, type ChatModel, type ModelStreamEvent } from "../../../src/core/model/types";
import {
  RESTRICTED_MODE,
  findRepository,
  openGitApi,
  type GitApi,
  type GitChange,
  type GitRepository,
  type GitUri,
} from "../../../src/host/editor/gitRepositories";
import { commitChangesOf } from "../../../src/host/editor/gitExtensionChanges";
import { generateCommitMessage } from "../../../src/host/editor/commitMessageRun";
import type { FathomSettings } from "../../../src/host/settings";
import { FakeModel } from "../../support/fakeModel";

const uri = (fsPath: string): GitUri => ({ fsPath, scheme: "file", toString: () => `file://${fsPath}` });
const STAGED = "diff --git a/app.js b/app.js\n--- a/app.js\n+++ b/app.js\n@@ -1 +1 @@\n-old\n+new\n";

interface FakeRepo extends GitRepository {
  boxHistory: string[];
}

function repo(
  root: string,
  o: {
    staged?: string;
    unstaged?: string;
    untracked?: string[];
    log?: { message: string; parents: string[] }[] | Error;
  } = {},
): FakeRepo {
  let value = "";
  const boxHistory: string[] = [];
  const untracked: GitChange[] = (o.untracked ?? []).map((p) => ({ uri: uri(path.join(root, p)), status: 7 }));
  return {
    rootUri: uri(root),
    boxHistory,
    inputBox: {
      get value() {
        return value;
      },
      set value(v: string) {
        value = v;
        boxHistory.push(v);
      },
    },
    state: { indexChanges: [], workingTreeChanges: untracked },
    status: async () => undefined,
    diff: async (cached) => (cached ? (o.staged ?? "") : (o.unstaged ?? "")),
    log: async () => {
      if (o.log instanceof Error) throw o.log;
      return o.log ?? [{ message: "Add app\n\nwith a body", parents: ["p"] }];
    },
  };
}

function api(
  repositories: GitRepository[],
  o: { state?: GitApi["state"]; closed?: GitRepository[] } = {},
): GitApi & { opened: string[]; fire(state: GitApi["state"]): void } {
  const listeners: ((s: GitApi["state"]) => unknown)[] = [];
  const opened: string[] = [];
  const self = {
    state: o.state ?? ("initialized" as GitApi["state"]),
    opened,
    repositories,
    onDidChangeState: (l: (s: GitApi["state"]) => unknown) => {
      listeners.push(l);
      return { dispose: () => listeners.splice(listeners.indexOf(l), 1) };
    },
    getRepository: (u: GitUri) => repositories.find((r) => u.fsPath.startsWith(r.rootUri.fsPath)) ?? null,
    openRepository: async (u: GitUri) => {
      opened.push(u.fsPath);
      const found = o.closed?.find((r) => u.fsPath.startsWith(r.rootUri.fsPath)) ?? null;
      if (found) repositories.push(found);
      return found;
    },
    fire(state: GitApi["state"]) {
      self.state = state;
      for (const l of [...listeners]) l(state);
    },
  };
  return self;
}

const noPick = async () => assert.fail("should not ask");

describe("the git extension's API", () => {
  const exports = (enabled = true, getAPI = () => api([])) => ({ activate: async () => ({ enabled, getAPI }) });

  it("in Restricted Mode says the git extension does not run there and offers to manage trust", async () => {
    assert.deepEqual(await openGitApi({ extension: exports(), isTrusted: false }), { problem: RESTRICTED_MODE });
    assert.match(RESTRICTED_MODE.message, /does not run in Restricted Mode.*Trust this folder.*fathom commit-message/);
    assert.equal(RESTRICTED_MODE.action?.command, "workbench.trust.manage");
  });

  it("says what to do when the extension is missing, fails to start, or git is turned off", async () => {
    const missing = await openGitApi({ extension: undefined, isTrusted: true });
    assert.match(
      "problem" in missing ? missing.problem.message : "",
      /not available in this window \(it is disabled or missing\)/,
    );
    const failing = await openGitApi({
      extension: { activate: async () => Promise.reject(new Error("spawn git ENOENT")) },
      isTrusted: true,
    });
    assert.match("problem" in failing ? failing.problem.message : "", /failed to start: spawn git ENOENT/);
    const off = await openGitApi({ extension: exports(false), isTrusted: true });
    assert.deepEqual("problem" in off ? off.problem.action : undefined, {
      label: "Open Setting",
      command: "workbench.action.openSettings",
      args: ["git.enabled"],
    });
    const throwing = await openGitApi({
      extension: exports(true, () => {
        throw new Error("Git model not found");
      }),
      isTrusted: true,
    });
    assert.match("problem" in throwing ? throwing.problem.message : "", /git\.enabled/);
    assert.ok("api" in (await openGitApi({ extension: exports(), isTrusted: true })));
  });
});

describe("which repository", () => {
  const one = repo("/w/one");
  const two = repo("/w/two");

  it("is the one whose button was pressed, else the only one, else the person's pick", async () => {
    const both = api([one, two]);
    const pressed = await findRepository(both, {
      hint: { id: "git", rootUri: uri("/w/two") },
      folders: [],
      pick: noPick,
    });
    assert.equal("repository" in pressed && pressed.repository, two);
    const only = await findRepository(api([one]), { hint: undefined, folders: [], pick: noPick });
    assert.equal("repository" in only && only.repository, one);
    const asked: string[][] = [];
    const picked = await findRepository(both, {
      hint: undefined,
      folders: [],
      pick: async (rs) => (asked.push(rs.map((r) => r.rootUri.fsPath)), rs[1]),
    });
    assert.equal("repository" in picked && picked.repository, two);
    assert.deepEqual(asked, [["/w/one", "/w/two"]]);
    assert.deepEqual(await findRepository(both, { hint: undefined, folders: [], pick: async () => undefined }), {
      dismissed: true,
    });
  });

  it("waits for the extension to finish looking, and says so when it takes too long", async () => {
    const starting = api([one], { state: "uninitialized" });
    const waiting = findRepository(starting, { hint: undefined, folders: [], pick: noPick });
    setTimeout(() => starting.fire("initialized"), 20);
    const found = await waiting;
    assert.equal("repository" in found && found.repository, one);
    const stuck = await findRepository(api([one], { state: "uninitialized" }), {
      hint: undefined,
      folders: [],
      pick: noPick,
      waitMs: 30,
    });
    assert.match("problem" in stuck ? stuck.problem.message : "", /still looking for this window's repositories/);
  });

  it("opens a repository the extension has not opened yet: in the window's folders, or where the button points", async () => {
    const later = repo("/w/later");
    const closed = api([], { closed: [later] });
    const found = await findRepository(closed, {
      hint: undefined,
      folders: [uri("/w/later/src"), uri("/w/none")],
      pick: noPick,
    });
    assert.equal("repository" in found && found.repository, later);
    assert.deepEqual(closed.opened, ["/w/later/src", "/w/none"]);
    const pointed = await findRepository(api([], { closed: [later] }), {
      hint: uri("/w/later"),
      folders: [],
      pick: noPick,
    });
    assert.equal("repository" in pointed && pointed.repository, later);
  });

  it("says there is none, offering Initialize Repository", async () => {
    const none = await findRepository(api([]), { hint: undefined, folders: [uri("/w/plain")], pick: noPick });
    assert.match("problem" in none ? none.problem.message : "", /There is no git repository in this window/);
    assert.equal("problem" in none ? none.problem.action?.command : "", "git.init");
    const gone = await findRepository(api([]), { hint: { rootUri: uri("/w/gone") }, folders: [], pick: noPick });
    assert.match("problem" in gone ? gone.problem.message : "", /no git repository at \/w\/gone/);
  });
});

describe("what the commit would hold", () => {
  it("the staged changes when there are some; else all of them, untracked files read from disk", async () => {
    const root = mkdtempSync(path.join(tmpdir(), "fathom-scm-"));
    writeFileSync(path.join(root, "new.md"), "hello\n");
    writeFileSync(path.join(root, "image.bin"), Buffer.from([1, 0, 2]));
    const staged = await commitChangesOf(repo(root, { staged: STAGED, unstaged: "ignored", untracked: ["new.md"] }));
    assert.ok(!("error" in staged));
    assert.equal(staged.scope, "staged");
    assert.deepEqual(
      staged.files.map((f) => f.path),
      ["app.js"],
    );
    assert.deepEqual(staged.subjects, ["Add app"]);

    const all = await commitChangesOf(repo(root, { unstaged: STAGED, untracked: ["new.md", "image.bin"] }));
    assert.ok(!("error" in all));
    assert.equal(all.scope, "all");
    assert.deepEqual(
      all.files.map((f) => [f.path, f.status, f.binary]),
      [
        ["app.js", "modified", false],
        ["new.md", "added", false],
        ["image.bin", "added", true],
      ],
    );
  });

  it("leaves merges out of the examples; a repository without commits has none", async () => {
    const merges = await commitChangesOf(
      repo("/r", {
        staged: STAGED,
        log: [
          { message: "Merge branch 'x'", parents: ["a", "b"] },
          { message: "Fix it", parents: ["a"] },
        ],
      }),
    );
    assert.deepEqual(!("error" in merges) && merges.subjects, ["Fix it"]);
    const empty = await commitChangesOf(
      repo("/r", { staged: STAGED, log: new Error("does not have any commits yet") }),
    );
    assert.deepEqual(!("error" in empty) && empty.subjects, []);
  });
});

describe("the Source Control box while the message streams in", () => {
  const log = { trace() {}, debug() {}, info() {}, warn() {}, error() {} };
  const settings = { provider: "openai", secretFiles: [] } as unknown as FathomSettings;
  const models = (
    model: ChatModel,
    problem: { message: string; action?: "fathom.setApiKey"; actionLabel?: string } | null = null,
  ) => ({
    readSetup: async () => ({ settings, apiKey: "k", problem }),
    createModel: () => model,
  });
  /** Sends `pieces` one by one; before each after the first it awaits `between` (if given). */
  const pieces = (parts: string[], between?: () => Promise<void>): ChatModel => ({
    provider: "scripted",
    model: "pieces",
    contextWindow: 8_192,
    async *stream(): AsyncIterable<ModelStreamEvent> {
      for (const [i, text] of parts.entries()) {
        if (i > 0 && between) await between();
        yield { type: "text_delta", text };
      }
      yield {
        type: "done",
        message: { role: "assistant", content: parts.join("") },
        usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 },
        stopReason: "end_turn",
      };
    },
  });

  it("fills the box as the text arrives, and ends with the cleaned message", async () => {
    const r = repo("/r", { staged: STAGED });
    const outcome = await generateCommitMessage(r, {
      models: models(pieces(["Commit message: Use", " the new value\n", "Body."])),
      signal: new AbortController().signal,
      log,
    });
    assert.deepEqual(outcome, { ok: true, message: "Use the new value\n\nBody.", summarized: false });
    assert.deepEqual(r.boxHistory.slice(0, 2), ["Use", "Use the new value"]);
    assert.equal(r.inputBox.value, "Use the new value\n\nBody.");
  });

  it("gives the person's text back on cancel and on a model error (offering Set API Key for a refused key)", async () => {
    const r = repo("/r", { staged: STAGED });
    r.inputBox.value = "my draft";
    const controller = new AbortController();
    const cancelled = generateCommitMessage(r, {
      models: models(new FakeModel([{ hang: true, text: "Half a subj" }])),
      signal: controller.signal,
      log,
    });
    while (r.inputBox.value !== "Half a subj") await new Promise((res) => setTimeout(res, 5));
    controller.abort();
    const ended = await cancelled;
    assert.equal(ended.ok === false && ended.reason, "cancelled");
    assert.equal(r.inputBox.value, "my draft");

    const failed = await generateCommitMessage(r, {
      models: models(new FakeModel([{ error: new ModelError("auth", "The API key was refused (401).", 401) }])),
      signal: new AbortController().signal,
      log,
    });
    assert.deepEqual(failed, {
      ok: false,
      reason: "model",
      message: "The API key was refused (401).",
      action: { label: "Set API Key", command: "fathom.setApiKey" },
    });
    assert.equal(r.inputBox.value, "my draft");
  });

  it("stops and leaves the person's text when they type into the box meanwhile", async () => {
    const r = repo("/r", { staged: STAGED });
    const model = pieces(["Fix", " the thing"], async () => {
      r.inputBox.value = "I will write it myself";
    });
    const outcome = await generateCommitMessage(r, {
      models: models(model),
      signal: new AbortController().signal,
      log,
    });
    assert.equal(outcome.ok === false && outcome.reason, "edited");
    assert.equal(r.inputBox.value, "I will write it myself");
  });

  it("says what to fix before asking: no changes, a model that is not set up", async () => {
    const clean = await generateCommitMessage(repo("/r"), {
      models: models(new FakeModel([])),
      signal: new AbortController().signal,
      log,
    });
    assert.deepEqual(clean, {
      ok: false,
      reason: "no_changes",
      message: "There are no changes in /r to write a commit message for: change or add a file first.",
    });
    const noKey = await generateCommitMessage(repo("/r", { staged: STAGED }), {
      models: models(new FakeModel([]), {
        message: "No API key for OpenAI.",
        action: "fathom.setApiKey",
        actionLabel: "Set API Key",
      }),
      signal: new AbortController().signal,
      log,
    });
    assert.deepEqual(noKey, {
      ok: false,
      reason: "setup",
      message: "No API key for OpenAI.",
      action: { label: "Set API Key", command: "fathom.setApiKey" },
    });
  });
});
