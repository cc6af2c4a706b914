#!/usr/bin/env node
// Prints the ten slowest test files of the last test run and each package's total, from the JSON reports the
// packages' test scripts write to test-results/durations/ (vitest's JSON reporter).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const root = join(import.meta.dirname, '..');
const dir = join(root, 'test-results', 'durations');
if (!existsSync(dir)) {
  console.log('no test durations recorded (test-results/durations/ is missing)');
  process.exit(0);
}
const files = [];
for (const report of readdirSync(dir).filter((name) => name.endsWith('.json'))) {
  const pkg = report.replace(/\.json$/, '');
  const { testResults = [] } = JSON.parse(readFileSync(join(dir, report), 'utf8'));
  let total = 0;
  for (const result of testResults) {
    const seconds = (result.endTime - result.startTime) / 1000;
    total += seconds;
    files.push({ file: relative(root, result.name), seconds, tests: result.assertionResults?.length ?? 0 });
  }
  console.log(
    `${pkg.padEnd(18)} ${String(testResults.length).padStart(3)} files  ${total.toFixed(1).padStart(7)} s summed`,
  );
}
files.sort((a, b) => b.seconds - a.seconds);
console.log('\nten slowest test files (seconds, tests, file):');
for (const { file, seconds, tests } of files.slice(0, 10)) {
  console.log(`${seconds.toFixed(1).padStart(7)}  ${String(tests).padStart(4)}  ${file}`);
}
