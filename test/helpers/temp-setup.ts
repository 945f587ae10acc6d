// Setup file (vitest.config.ts): the test file's own temporary directory.
// Before the file is imported, TMPDIR points at a fresh directory under the
// run's root (test/helpers/temp-global.ts), so os.tmpdir() in the test, in
// the sources it imports and in every binary it spawns (helpers/cli.ts passes
// TMPDIR on) lands there. After the file: tempDir()'s directories are removed,
// and anything else still there fails the file, by name, then goes too.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect } from 'vitest';
import { removeTempDirs } from './temp.js';

const outer = process.env.TMPDIR;
const fileTemp = mkdtempSync(join(process.env.ADOPS_TEST_TMP_ROOT ?? tmpdir(), 'file-'));
process.env.TMPDIR = fileTemp;

// Registered first, so it runs after the file's own afterAll hooks (vitest runs them as a stack).
afterAll(() => {
  removeTempDirs();
  const left = readdirSync(fileTemp);
  rmSync(fileTemp, { recursive: true, force: true });
  if (outer === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = outer;
  expect(left, 'left in the temp dir after this file (make it with tempDir() from test/helpers/temp.ts, or find what did not clean up)').toEqual([]);
});
