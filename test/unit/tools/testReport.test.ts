// A test run's output made short for a model (issue 39).
import assert from "node:assert/strict";
import { test } from "node:test";
import { testReport } from "../../../src/core/tools/testReport";

const PYTEST_FAILED = `.F.F                                                                     [100%]
=================================== FAILURES ===================================
_______________________ BobTest.test_forceful_question ________________________

self = <bob_test.BobTest testMethod=test_forceful_question>

    def test_forceful_question(self):
>       self.assertEqual(
            response("WHAT'S GOING ON?"), "Calm down, I know what I'm doing!"
        )
E       AssertionError: 'Sure.' != "Calm down, I know what I'm doing!"
E       - Sure.
E       + Calm down, I know what I'm doing!

bob_test.py:23: AssertionError
_____________________ BobTest.test_ending_with_whitespace ______________________

self = <bob_test.BobTest testMethod=test_ending_with_whitespace>

    def test_ending_with_whitespace(self):
>       self.assertEqual(response("Okay?   "), "Sure.")
E       AssertionError: 'Whatever.' != 'Sure.'

bob_test.py:49: AssertionError
=========================== short test summary info ============================
FAILED bob_test.py::BobTest::test_forceful_question - AssertionError: 'Sure.'...
FAILED bob_test.py::BobTest::test_ending_with_whitespace - AssertionError: 'W...
2 failed, 24 passed in 0.03s
`;

test("pytest failures: counts, then per failure its test, file:line, the failing statement and the message", () => {
  const report = testReport("python -m pytest -q", PYTEST_FAILED, 1);
  assert.equal(report.passed, false);
  assert.deepEqual(report.counts, { passed: 24, failed: 2, errors: 0 });
  assert.equal(
    report.text,
    [
      "`python -m pytest -q`: 2 failed, 24 passed (exit code 1).",
      "- BobTest.test_forceful_question (bob_test.py:23)",
      `    self.assertEqual(response("WHAT'S GOING ON?"), "Calm down, I know what I'm doing!")`,
      `    AssertionError: 'Sure.' != "Calm down, I know what I'm doing!"`,
      "- BobTest.test_ending_with_whitespace (bob_test.py:49)",
      `    self.assertEqual(response("Okay?   "), "Sure.")`,
      "    AssertionError: 'Whatever.' != 'Sure.'",
    ].join("\n"),
  );
});

test("a collection error is a failure too; a pass is one line", () => {
  const collection = `
==================================== ERRORS ====================================
_________________________ ERROR collecting a_test.py __________________________
a_test.py:1: in <module>
    from a import x
E     File "/tmp/ce/a.py", line 1
E       def x(:
E             ^
E   SyntaxError: invalid syntax
=========================== short test summary info ============================
ERROR a_test.py
1 error in 0.05s
`;
  const failed = testReport("pytest", collection, 2);
  assert.match(
    failed.text,
    /^`pytest`: 1 error, 0 passed \(exit code 2\)\.\n- ERROR collecting a_test\.py \(a_test\.py:1\)/,
  );
  assert.match(failed.text, /SyntaxError: invalid syntax/);
  const ok = testReport("pytest", "....\n4 passed in 0.01s\n", 0);
  assert.deepEqual(ok, {
    passed: true,
    counts: { passed: 4, failed: 0, errors: 0 },
    text: "`pytest`: 4 passed (exit code 0).",
  });
});

test("output of another runner keeps its last lines; a long report is cut and says so", () => {
  const other = Array.from({ length: 60 }, (_, i) => `line ${i + 1}`).join("\n");
  const report = testReport("npm test", other, 1);
  assert.match(report.text, /^`npm test`: failed \(exit code 1\)\.\nIts last lines:\nline 31\n/);
  assert.match(report.text, /line 60$/);
  const many = Array.from(
    { length: 12 },
    (_, i) =>
      `___ T.test_${i} ___\n>   assert f(${i}) == ${"x".repeat(400)}\nE   AssertionError\n\nt.py:${i + 1}: AssertionError`,
  ).join("\n");
  const long = testReport("pytest", `${many}\n12 failed in 1.00s\n`, 1);
  assert.ok(long.text.length < 3_100);
  assert.match(long.text, /\(6 more failures not shown\)|\(cut here: the report is longer\)/);
});
