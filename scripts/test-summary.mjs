// Prints vitest's JSON report as one plain closing line ("N passed, N failed, N skipped") for CI.
import { readFileSync } from 'node:fs';

const path = process.argv[2] ?? 'test-results/vitest.json';
try {
  const report = JSON.parse(readFileSync(path, 'utf8'));
  const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
  console.log(`Tests: ${report.numPassedTests} passed, ${report.numFailedTests} failed, ${skipped} skipped`);
} catch (error) {
  console.log(`Tests: no report at ${path} (${error instanceof Error ? error.message : String(error)})`);
}
