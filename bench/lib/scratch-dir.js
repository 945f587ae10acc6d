// A bench's scratch directory under the OS temp dir, removed when the bench's process exits — also when it throws
// or calls process.exit (an 'exit' listener runs for both). Benches made theirs with mkdtempSync and removed them in a
// `finally` of their own, and four of them (ndjson-stream, sandbox-mixed, sandbox-scale, startup) never did: every
// `node bench/run-all.js` left adops-bench-* directories behind. One place makes them, so none is forgotten
// (test/unit/bench-scratch.test.ts holds every bench to it).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made = [];
process.on('exit', () => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A new directory named `adops-bench-<name>-XXXXXX`, removed with everything in it at the process's exit. */
export function scratchDir(name) {
  const dir = mkdtempSync(join(tmpdir(), `adops-bench-${name}-`));
  made.push(dir);
  return dir;
}
