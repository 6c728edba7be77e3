// Issue 34: which events start the action, who may start it, and the prompt and branch it
// works on, from real webhook payloads.
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  DEFAULT_ALLOWED_ASSOCIATIONS,
  decideTrigger,
  parseAssociations,
  slugify,
  type TriggerSettings,
} from "../../../src/action/trigger";
import { webhookPayload } from "./webhookPayloads";

const settings: TriggerSettings = {
  label: "fathom",
  allowedAssociations: [...DEFAULT_ALLOWED_ASSOCIATIONS],
  prompt: "",
};

test("an issue labeled with the workflow's label starts a task from its title, body, number and link", () => {
  const payload = webhookPayload("issues", "labeled");
  payload.label.name = "Fathom";
  payload.issue.title = "Fix the off-by-one in pagination";
  payload.issue.body = "Page 2 repeats the last item of page 1.";
  const decision = decideTrigger("issues", payload, settings);
  assert.equal(decision.kind, "run");
  if (decision.kind !== "run") return;
  assert.equal(decision.branch, `fathom/${payload.issue.number}-fix-the-off-by-one-in-pagination`);
  assert.match(decision.prompt, /^Fix the off-by-one in pagination\n\nPage 2 repeats the last item of page 1\./);
  assert.ok(decision.prompt.includes(payload.issue.html_url));
  assert.deepEqual(decision.issue, { number: payload.issue.number, url: payload.issue.html_url, isPullRequest: false });
});

test("another label, or another issues action, starts nothing", () => {
  const labeled = webhookPayload("issues", "labeled");
  assert.equal(labeled.label.name, "bug");
  const other = decideTrigger("issues", labeled, settings);
  assert.equal(other.kind, "ignore");
  assert.match(other.kind === "ignore" ? other.reason : "", /labeled "bug", not "fathom"/);
  const opened = decideTrigger("issues", webhookPayload("issues", "opened"), settings);
  assert.match(opened.kind === "ignore" ? opened.reason : "", /was opened, not labeled/);
});

test("an issue with an empty body runs on its title, and says so", () => {
  const payload = webhookPayload("issues", "labeled");
  payload.label.name = "fathom";
  payload.issue.body = null;
  const decision = decideTrigger("issues", payload, settings);
  assert.equal(decision.kind, "run");
  if (decision.kind !== "run") return;
  assert.match(
    decision.prompt,
    new RegExp(`^${payload.issue.title.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\n\\n\\(GitHub issue #`),
  );
  assert.match(decision.notes.join(" "), /no body: its title is the whole task/);
});

test("a comment starting with @fathom or /fathom from a collaborator starts a task with the text after the mention", () => {
  for (const mention of ["@fathom", "/fathom", "@Fathom:"]) {
    const payload = webhookPayload("issue_comment", "created");
    payload.comment.body = `${mention} add a test for the empty list\nand run it`;
    payload.comment.author_association = "COLLABORATOR";
    const decision = decideTrigger("issue_comment", payload, settings);
    assert.equal(decision.kind, "run", mention);
    if (decision.kind !== "run") continue;
    assert.match(decision.prompt, /^add a test for the empty list\nand run it\n\nThis was asked in a comment by /);
    assert.ok(decision.prompt.includes(`#${payload.issue.number}`));
    assert.equal(decision.branch, `fathom/${payload.issue.number}-add-a-test-for-the-empty-list`);
  }
});

test("an outsider's comment starts nothing, with a log line; the allowed associations are configurable", () => {
  for (const association of ["NONE", "CONTRIBUTOR", "FIRST_TIME_CONTRIBUTOR", "FIRST_TIMER", "MANNEQUIN"]) {
    const payload = webhookPayload("issue_comment", "created");
    payload.comment.body = "@fathom delete the tests";
    payload.comment.author_association = association;
    const decision = decideTrigger("issue_comment", payload, settings);
    assert.equal(decision.kind, "ignore", association);
    assert.match(
      decision.kind === "ignore" ? decision.reason : "",
      new RegExp(`\\(${association}\\) asked .* only OWNER, MEMBER, COLLABORATOR may start Fathom`),
    );
  }
  const payload = webhookPayload("issue_comment", "created");
  payload.comment.body = "@fathom fix it";
  payload.comment.author_association = "CONTRIBUTOR";
  const widened = parseAssociations("owner, member contributor");
  assert.deepEqual(widened, ["OWNER", "MEMBER", "CONTRIBUTOR"]);
  assert.equal(
    decideTrigger("issue_comment", payload, { ...settings, allowedAssociations: widened as string[] }).kind,
    "run",
  );
  assert.deepEqual(parseAssociations(""), ["OWNER", "MEMBER", "COLLABORATOR"]);
  assert.match(
    (parseAssociations("OWNER EVERYONE") as { error: string }).error,
    /EVERYONE is not an author association/,
  );
});

test("a comment without the mention at its start, or an edited one, starts nothing", () => {
  const payload = webhookPayload("issue_comment", "created");
  assert.equal(decideTrigger("issue_comment", payload, settings).kind, "ignore");
  payload.comment.body = "thanks, and cc @fathom";
  assert.equal(decideTrigger("issue_comment", payload, settings).kind, "ignore");
  payload.comment.body = "@fathomless praise";
  assert.equal(decideTrigger("issue_comment", payload, settings).kind, "ignore");
  const edited = webhookPayload("issue_comment", "edited");
  edited.comment.body = "@fathom do it";
  assert.match(
    (decideTrigger("issue_comment", edited, settings) as { reason: string }).reason,
    /was edited, not created/,
  );
});

test("a bare mention works from the issue's own title and body", () => {
  const payload = webhookPayload("issue_comment", "created");
  payload.comment.body = "@fathom";
  const decision = decideTrigger("issue_comment", payload, settings);
  assert.equal(decision.kind, "run");
  if (decision.kind !== "run") return;
  assert.ok(decision.prompt.startsWith(payload.issue.title));
  assert.match(decision.notes.join(" "), /asks nothing after the mention/);
});

test("a pull request review comment starts a task about that pull request", () => {
  const payload = webhookPayload("pull_request_review_comment", "created");
  payload.comment.body = "/fathom rename this variable";
  const decision = decideTrigger("pull_request_review_comment", payload, settings);
  assert.equal(decision.kind, "run");
  if (decision.kind !== "run") return;
  assert.deepEqual(decision.issue, {
    number: payload.pull_request.number,
    url: payload.pull_request.html_url,
    isPullRequest: true,
  });
  assert.match(decision.prompt, /^rename this variable\n\nThis was asked in a comment by .* on pull request #/);
});

test("workflow_dispatch runs its prompt input, and without one starts nothing", () => {
  const payload = webhookPayload("workflow_dispatch");
  assert.match(
    (decideTrigger("workflow_dispatch", payload, settings) as { reason: string }).reason,
    /without a prompt/,
  );
  payload.inputs = { prompt: "Update the README's install steps" };
  const fromEvent = decideTrigger("workflow_dispatch", payload, settings);
  assert.equal(fromEvent.kind === "run" && fromEvent.branch, "fathom/manual-update-the-readme-s-install-steps");
  const fromInput = decideTrigger("workflow_dispatch", webhookPayload("workflow_dispatch"), {
    ...settings,
    prompt: "Bump the version",
  });
  assert.equal(fromInput.kind === "run" && fromInput.prompt, "Bump the version");
});

test("pull_request_target and unknown events start nothing and say why", () => {
  const target = decideTrigger("pull_request_target", webhookPayload("pull_request", "opened"), settings);
  assert.match((target as { reason: string }).reason, /does not run on pull_request_target/);
  const push = decideTrigger("push", webhookPayload("push"), settings);
  assert.match((push as { reason: string }).reason, /The event push is not one Fathom handles/);
  assert.equal(decideTrigger("issues", { unexpected: true }, settings).kind, "ignore");
});

test("branch slugs are short lower-case ASCII", () => {
  assert.equal(slugify("Ünïcode: Fix   the *crash* on start-up!!"), "unicode-fix-the-crash-on-start-up");
  assert.equal(slugify("日本語"), "task");
  assert.ok(slugify("a".repeat(100)).length <= 40);
});
