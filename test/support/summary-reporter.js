/**
 * Ends the run with one plain line, `<label>: N passed, N failed`, which CI logs are read for, after the slowest
 * test files (wall time of each, from its start in a worker to its end), the ones to look at when the suite gets slow.
 * The label is TEST_LABEL (e.g. sqlite or mariadb), else "tests".
 */
const path = require('node:path');

const SLOWEST_SHOWN = 15;

class SummaryReporter {
  constructor(globalConfig) {
    this.rootDir = globalConfig.rootDir;
  }

  onRunComplete(_contexts, results) {
    const label = process.env.TEST_LABEL || 'tests';
    const slowest = results.testResults
      .map((file) => ({
        file: path.relative(this.rootDir, file.testFilePath),
        seconds: (file.perfStats.end - file.perfStats.start) / 1000,
      }))
      .sort((a, b) => b.seconds - a.seconds)
      .slice(0, SLOWEST_SHOWN);
    if (results.testResults.length > 1) {
      process.stdout.write(`\nslowest test files (${label}):\n`);
      for (const { file, seconds } of slowest) process.stdout.write(`${seconds.toFixed(1).padStart(7)} s  ${file}\n`);
    }
    const skipped = results.numPendingTests + results.numTodoTests;
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    process.stdout.write(
      `\n${label}: ${results.numPassedTests} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}\n`,
    );
  }
}
module.exports = SummaryReporter;
