/**
 * A child of `npm run bench -- cli-run` (start-up.ts): runs one `episode run`
 * command line RUNS times in this process through the built CLI's `main()`,
 * and prints the CPU seconds of each run as a JSON array on stdout. The
 * first run pays for loading the command and for the JIT; the last ones are
 * the command's own work with every function already compiled: what no
 * fresh process can go below, whatever it loads and however it starts.
 *
 *   node --import tsx bench/episode-run-warm.ts RUNS episode run --scenario ...
 */

import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { ROOT } from './harness.js';

interface BuiltCli {
  main(argv: readonly string[], io: { stdout(text: string): void; stderr(text: string): void }): Promise<number>;
}

const [runsText, ...argv] = process.argv.slice(2);
const runs = Number(runsText);
if (!Number.isInteger(runs) || runs < 1 || argv.length === 0) {
  process.stderr.write('usage: episode-run-warm.ts RUNS COMMAND-LINE...\n');
  process.exit(2);
}
const { main } = (await import(pathToFileURL(join(ROOT, 'dist', 'cli', 'main.js')).href)) as BuiltCli;
const errors: string[] = [];
const io = { stdout: () => undefined, stderr: (text: string) => void errors.push(text) };
const seconds: number[] = [];
for (let run = 0; run < runs; run++) {
  const before = process.cpuUsage();
  const code = await main(argv, io);
  const used = process.cpuUsage(before);
  if (code !== 0) {
    process.stderr.write(`emberbench ${argv.join(' ')} exited with ${code}: ${errors.join('')}`);
    process.exit(1);
  }
  seconds.push((used.user + used.system) / 1e6);
}
process.stdout.write(JSON.stringify(seconds) + '\n');
