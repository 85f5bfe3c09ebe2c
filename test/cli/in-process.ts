// Runs main() in the test's own process (no spawn): the fast way to check a
// command's exit code, stdout and stderr.
import { captureIO } from '../../src/cli/io.js';
import { main } from '../../src/cli/main.js';

export async function runMain(args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const io = captureIO();
  const code = await main(args, io);
  return { code, stdout: io.out(), stderr: io.err() };
}
