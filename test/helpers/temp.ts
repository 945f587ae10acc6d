// The tests' one way to a temporary directory. Each test file gets its own
// directory (test/helpers/temp-setup.ts points TMPDIR at it, so the binaries
// and sandboxes a test spawns write there too); tempDir() makes a directory
// inside it that is removed after the file, whatever the test did. What is
// left beside them after the file (something the product or a raw mkdtemp
// made and never removed) fails the file: a run leaves nothing behind.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made: string[] = [];

/** A fresh directory (named `<prefix>XXXXXX`), removed after the test file. */
export function tempDir(prefix = 'adops-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** Remove every directory tempDir() made so far (temp-setup.ts calls it after each file). */
export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}
