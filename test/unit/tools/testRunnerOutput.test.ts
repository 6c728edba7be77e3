import { test } from "node:test";
import assert from "node:assert/strict";
import { testReport } from "../../../src/core/tools/testReport";

// Each runner's usual output for one passing and one failing test, trimmed of lines that do not matter.
const NODE_TAP = `TAP version 13
# Subtest: adds
ok 1 - adds
  ---
  duration_ms: 1.339894
  ...
# Subtest: subtracts
not ok 2 - subtracts
  ---
  duration_ms: 1.176827
  location: '/tmp/nt/a.test.mjs:4:1'
  failureType: 'testCodeFailure'
  error: |-
    Expected values to be strictly equal:
    
    1 !== 3
    
  code: 'ERR_ASSERTION'
  name: 'AssertionError'
  stack: |-
    TestContext.<anonymous> (file:///tmp/nt/a.test.mjs:4:32)
  ...
1..2
# tests 2
# pass 1
# fail 1
# cancelled 0`;

const NODE_SPEC = `✔ adds (0.9ms)
✖ subtracts (1.1ms)
ℹ tests 2
ℹ pass 1
ℹ fail 1

✖ failing tests:

test at a.test.mjs:4:1
✖ subtracts (1.190584ms)
  AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:
  
  1 !== 3
  
      at TestContext.<anonymous> (file:///tmp/nt/a.test.mjs:4:32)
      at Test.runInAsyncScope (node:async_hooks:206:9)`;

const JEST = `FAIL ./sum.test.js
  ✓ adds (2 ms)
  ✕ subtracts (3 ms)

  ● math › subtracts

    expect(received).toBe(expected) // Object.is equality

    Expected: 3
    Received: 1

      3 | test("subtracts", () => {
    > 4 |   expect(2 - 1).toBe(3);
        |                 ^
      5 | });

      at Object.toBe (sum.test.js:4:17)

Test Suites: 1 failed, 1 total
Tests:       1 failed, 1 passed, 2 total
Time:        0.4 s`;

const VITEST = ` ❯ test/math.test.ts (2 tests | 1 failed) 4ms
   × math > subtracts

⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯

 FAIL  test/math.test.ts > math > subtracts
AssertionError: expected 1 to be 3 // Object.is equality

- Expected
+ Received

 ❯ test/math.test.ts:4:19
      2| test("subtracts", () => {
      4|   expect(2 - 1).toBe(3);

⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/1]⎯

 Test Files  1 failed (1)
      Tests  1 failed | 1 passed (2)`;

const GO = `--- FAIL: TestSub (0.00s)
    math_test.go:12: Sub(2, 1) = 1; want 3
--- FAIL: TestTable (0.00s)
    --- FAIL: TestTable/negative (0.00s)
        math_test.go:30: got -1, want 1
FAIL
FAIL	example.com/m	0.002s
ok  	example.com/m/other	0.001s`;

const CARGO = `running 2 tests
test tests::adds ... ok
test tests::subtracts ... FAILED

failures:

---- tests::subtracts stdout ----
thread 'tests::subtracts' panicked at src/lib.rs:10:9:
assertion \`left == right\` failed
  left: 1
 right: 3
note: run with \`RUST_BACKTRACE=1\` environment variable to display a backtrace


failures:
    tests::subtracts

test result: FAILED. 1 passed; 1 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s

   Doc-tests m

running 1 test
test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.01s`;

test("Node's test runner (TAP): counts, the failing test, its file:line and message", () => {
  const r = testReport("npm test", NODE_TAP, 1);
  assert.deepEqual(r.counts, { passed: 1, failed: 1, errors: 0 });
  assert.deepEqual(r.failures, [
    { name: "subtracts", location: "/tmp/nt/a.test.mjs:4", message: "Expected values to be strictly equal:\n1 !== 3" },
  ]);
  assert.equal(
    r.text,
    "`npm test`: 1 failed, 1 passed (exit code 1).\n- subtracts (/tmp/nt/a.test.mjs:4)\n    Expected values to be strictly equal:\n    1 !== 3",
  );
});

test("Node's test runner (spec reporter)", () => {
  const r = testReport("node --test", NODE_SPEC, 1);
  assert.deepEqual(r.counts, { passed: 1, failed: 1, errors: 0 });
  assert.deepEqual(r.failures, [
    {
      name: "subtracts",
      location: "a.test.mjs:4",
      message: "AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:\n1 !== 3",
    },
  ]);
});

test("jest: the test's full name, the assertion without the code frame, the stack's place", () => {
  const r = testReport("npm test", JEST, 1);
  assert.deepEqual(r.counts, { passed: 1, failed: 1, errors: 0 });
  assert.deepEqual(r.failures, [
    {
      name: "math › subtracts",
      location: "sum.test.js:4",
      message: "expect(received).toBe(expected) // Object.is equality\nExpected: 3\nReceived: 1",
    },
  ]);
});

test("vitest: the FAIL entries of its failed tests", () => {
  const r = testReport("npx vitest run", VITEST, 1);
  assert.deepEqual(r.counts, { passed: 1, failed: 1, errors: 0 });
  assert.deepEqual(r.failures, [
    {
      name: "test/math.test.ts > math > subtracts",
      location: "test/math.test.ts:4",
      message: "AssertionError: expected 1 to be 3 // Object.is equality",
    },
  ]);
});

test("go test: each failing test and subtest with its file:line; no counts without -v", () => {
  const r = testReport("go test ./...", GO, 1);
  assert.equal(r.counts, undefined);
  assert.deepEqual(r.failures, [
    { name: "TestSub", location: "math_test.go:12", message: "Sub(2, 1) = 1; want 3" },
    { name: "TestTable/negative", location: "math_test.go:30", message: "got -1, want 1" },
  ]);
  assert.match(r.text, /^`go test \.\/\.\.\.`: failed \(exit code 1\)\.\n- TestSub \(math_test\.go:12\)\n/);
  const verbose = testReport("go test -v", "=== RUN   TestA\n--- PASS: TestA (0.00s)\nPASS\nok  \tm\t0.001s", 0);
  assert.deepEqual(verbose.counts, { passed: 1, failed: 0, errors: 0 });
  assert.equal(verbose.text, "`go test -v`: 1 passed (exit code 0).");
});

test("cargo test: counts summed over its test binaries, the panic's place and message", () => {
  const r = testReport("cargo test", CARGO, 101);
  assert.deepEqual(r.counts, { passed: 2, failed: 1, errors: 0 });
  assert.deepEqual(r.failures, [
    {
      name: "tests::subtracts",
      location: "src/lib.rs:10",
      message: "assertion `left == right` failed\nleft: 1\nright: 3",
    },
  ]);
  const old = testReport(
    "cargo test",
    "---- t stdout ----\nthread 't' panicked at 'boom', src/lib.rs:3:5\n\ntest result: FAILED. 0 passed; 1 failed; 0 ignored",
    101,
  );
  assert.deepEqual(old.failures, [{ name: "t", location: "src/lib.rs:3", message: "boom" }]);
});

test("output no reader knows keeps its last lines", () => {
  const r = testReport("make check", "compiling\nerror: something broke", 2);
  assert.equal(r.failures, undefined);
  assert.match(r.text, /Its last lines:\ncompiling\nerror: something broke$/);
});
