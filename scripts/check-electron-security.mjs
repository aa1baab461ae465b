// Runs Electronegativity over the Electron shell and fails on any finding above informational severity,
// except manual-review findings a person has reviewed and justified in <input>/security-review.json.
// Its own CLI reads options through an undeclared, hoisted commander whose newer API it cannot use, so the
// scanner's runner is called directly.
import { createRequire } from 'node:module';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const require = createRequire(import.meta.url);
const run = require('@doyensec/electronegativity/dist/runner.js');
const electronVersion = require('electron/package.json').version;

const input = path.resolve(process.argv[2] ?? 'electron');
if (!existsSync(input)) {
  console.error(`electronegativity: ${input} does not exist`);
  process.exit(2);
}
const result = await run(
  {
    input,
    customScan: [],
    excludeFromScan: [],
    isRelative: true,
    isVerbose: false,
    parserPlugins: [],
    electronVersionOverride: electronVersion,
  },
  false,
);
for (const error of result.errors ?? [])
  console.error(`electronegativity could not parse ${error.file}: ${error.message ?? error.error}`);
const reviewFile = path.join(input, 'security-review.json');
const reviewed = existsSync(reviewFile) ? JSON.parse(readFileSync(reviewFile, 'utf8')).reviewed : [];
// Only findings the scanner itself marks for manual review can be accepted; certain ones always fail.
const review = (issue) =>
  issue.manualReview ? reviewed.find((r) => r.id === issue.id && r.file === issue.file) : undefined;
const serious = result.issues.filter((issue) => issue.severity.value > 0 && !review(issue));
for (const issue of result.issues) {
  const accepted = review(issue);
  const level = issue.severity.value === 0 ? 'info' : accepted ? 'reviewed' : 'FAIL';
  console.log(
    `${level} ${issue.id} (${issue.severity.name}, ${issue.confidence.name}) ${issue.file}:${issue.location.line} ${issue.shortenedURL ?? ''}${accepted ? ` — ${accepted.reason}` : ''}`,
  );
}
console.log(
  `electronegativity: ${result.issues.length} finding(s), ${serious.length} above informational and not reviewed, in ${path.relative(process.cwd(), input) || '.'}`,
);
process.exit(serious.length > 0 || (result.errors ?? []).length > 0 ? 1 : 0);
