import { test } from "node:test";
import assert from "node:assert/strict";
import { createAgent } from "../../../src/core/agent/createAgent";
import { MAX_QUESTIONS_IN_A_ROW } from "../../../src/core/middleware/askUser";
import { NO_ONE_CAN_ANSWER, type QuestionAsker, type QuestionRequest } from "../../../src/core/question";
import { FakeModel } from "../../support/fakeModel";
import { collect, ofType } from "../../support/agentTestKit";

const base = { workspaceRoot: "/tmp/ws", rules: false, generalPurposeSubagent: false } as const;

function answering(answer: string, asked: QuestionRequest[] = []): QuestionAsker {
  return { ask: async (request) => (asked.push(request), { answer }) };
}

test("ask_user: the question reaches the asker, the answer is the tool result, no step is taken while it waits", async () => {
  const asked: QuestionRequest[] = [];
  let release!: () => void;
  const slow: QuestionAsker = {
    ask: (request) =>
      new Promise((resolve) => {
        asked.push(request);
        release = () => resolve({ answer: "Postgres" });
      }),
  };
  const model = new FakeModel([
    {
      toolCalls: [
        {
          name: "ask_user",
          arguments: { question: "Which database?", choices: ["Postgres", "SQLite"], allow_free_text: false },
        },
      ],
    },
    { text: "Using Postgres." },
  ]);
  const agent = createAgent({ ...base, model, questions: slow });
  const run = collect(agent, "add a database");
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(model.requests.length, 1, "no request while the question waits");
  release();
  const { events, done } = await run;
  assert.equal(done.reason, "completed");
  assert.deepEqual(asked[0], {
    toolCallId: asked[0]!.toolCallId,
    question: "Which database?",
    choices: ["Postgres", "SQLite"],
    allowFreeText: false,
  });
  const q = ofType(events, "question_asked")[0]!;
  assert.equal(q.question, "Which database?");
  assert.deepEqual(ofType(events, "question_answered")[0], {
    type: "question_answered",
    toolCallId: q.toolCallId,
    answer: "Postgres",
  });
  const result = done.state.messages.find((m) => m.role === "tool")!;
  assert.equal(result.content, "The person answered: Postgres");
  assert.equal(done.state.steps, 2);
});

test("ask_user: nobody to answer (the default) tells the model to decide and say what it assumed", async () => {
  const model = new FakeModel([
    { toolCalls: [{ name: "ask_user", arguments: { question: "Tabs or spaces?" } }] },
    { text: "Spaces (assumed)." },
  ]);
  const { done } = await collect(createAgent({ ...base, model }), "format");
  assert.equal(done.state.messages.find((m) => m.role === "tool")!.content, NO_ONE_CAN_ANSWER);
});

test("ask_user: bad choices (one, seven) and no way to answer are refused with a message the model can fix", async () => {
  const model = new FakeModel([
    { toolCalls: [{ name: "ask_user", arguments: { question: "A?", choices: ["only"] } }] },
    { toolCalls: [{ name: "ask_user", arguments: { question: "B?", choices: ["1", "2", "3", "4", "5", "6", "7"] } }] },
    { toolCalls: [{ name: "ask_user", arguments: { question: "C?", allow_free_text: false } }] },
    { text: "ok" },
  ]);
  const asked: QuestionRequest[] = [];
  const { done } = await collect(createAgent({ ...base, model, questions: answering("x", asked) }), "go");
  const results = done.state.messages.filter((m) => m.role === "tool");
  assert.equal(asked.length, 0);
  for (const r of results) assert.match(r.content, /invalid arguments for ask_user/);
  assert.match(results[2]!.content, /give choices, or allow free text/);
});

test("a subagent cannot ask: its question gets the no-one-can-answer result", async () => {
  const asked: QuestionRequest[] = [];
  const model = new FakeModel([
    { toolCalls: [{ name: "task", arguments: { description: "look", subagent_type: "general-purpose" } }] },
    { toolCalls: [{ name: "ask_user", arguments: { question: "Sub asks?" } }] },
    { text: "sub report" },
    { text: "done" },
  ]);
  const { done } = await collect(
    createAgent({ ...base, generalPurposeSubagent: true, model, questions: answering("x", asked) }),
    "go",
  );
  assert.equal(done.reason, "completed");
  assert.equal(asked.length, 0);
  const subResult = model.requests[2]!.messages.find((m) => m.role === "tool")!;
  assert.equal(subResult.content, NO_ONE_CAN_ANSWER);
});

test("100 questions in a row: past the limit they are refused, and the run stops on the failures guard", async () => {
  let n = 0;
  const model = new FakeModel(
    Array.from({ length: 100 }, () => () => ({
      toolCalls: [{ name: "ask_user", arguments: { question: `Question ${++n}?` } }],
    })),
  );
  const asked: QuestionRequest[] = [];
  const { done } = await collect(createAgent({ ...base, model, questions: answering("yes", asked) }), "go");
  assert.equal(asked.length, MAX_QUESTIONS_IN_A_ROW);
  assert.equal(done.reason, "tool_failures");
  assert.ok(model.requests.length < 20, `stopped early (${model.requests.length} requests)`);
  const refused = done.state.messages.filter((m) => m.role === "tool" && m.isError);
  assert.match(refused[0]!.content, /Not asked: you have asked 5 questions in a row/);
});

test("a cancelled run settles a waiting question", async () => {
  const controller = new AbortController();
  const waiting: QuestionAsker = {
    ask: (_r, signal) =>
      new Promise((resolve) =>
        signal.addEventListener("abort", () => resolve({ unanswered: "cancelled" }), { once: true }),
      ),
  };
  const model = new FakeModel([{ toolCalls: [{ name: "ask_user", arguments: { question: "Wait?" } }] }]);
  const run = collect(createAgent({ ...base, model, questions: waiting }), "go", { signal: controller.signal });
  setTimeout(() => controller.abort(), 30);
  const { done } = await run;
  assert.equal(done.reason, "cancelled");
});
