/**
 * Ends the run with one plain line, `<label>: N passed, N failed`, which CI logs are read for.
 * The label is TEST_LABEL (e.g. sqlite or mariadb), else "tests".
 */
class SummaryReporter {
  onRunComplete(_contexts, results) {
    const label = process.env.TEST_LABEL || 'tests';
    const skipped = results.numPendingTests + results.numTodoTests;
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    process.stdout.write(
      `\n${label}: ${results.numPassedTests} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`,
    );
  }
}
module.exports = SummaryReporter;
