/*
 * Prints `N passed, M failed` as the run's last line, which .ci/test-all.ts adds to the suite's total. A test
 * that never finished (the global time-out, a crash) counts as failed, and a run that broke outside the tests
 * (global setup) counts one failure, so a broken run never reads as green.
 */
import type { FullResult, Reporter, Suite, TestCase } from "@playwright/test/reporter";

export default class SummaryReporter implements Reporter {
  private tests: TestCase[] = [];

  onBegin(_config: unknown, suite: Suite): void {
    this.tests = suite.allTests();
  }

  onEnd(result: FullResult): void {
    // A test with no result in a run that passed was only listed (--list).
    const outcomes = this.tests.map((test) =>
      test.results.length === 0 ? (result.status === "passed" ? "skipped" : "unexpected") : test.outcome(),
    );
    const passed = outcomes.filter((o) => o === "expected").length;
    // "flaky" (passed on a retry) is a failure here too, should retries ever be turned on.
    let failed = outcomes.filter((o) => o === "unexpected" || o === "flaky").length;
    if (result.status !== "passed" && failed === 0) failed = 1;
    console.log(`${passed} passed, ${failed} failed`);
  }

  printsToStdio(): boolean {
    return true;
  }
}
