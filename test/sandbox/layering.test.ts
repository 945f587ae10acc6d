// The sandbox's inside (models, providers, ingest, store, fixtures) knows
// nothing of HTTP: it imports neither http/ nor routes/ nor Hono, and it
// throws ServiceError by code (domainError), never naming a status. The walls
// are dependency-cruiser's rules (.dependency-cruiser.cjs, run by `npm run lint`
// over all of src, every rule at severity error: a break there fails lint). This
// test shows on a probe tree that the rules do catch what they name. (It also ran
// the tool over src/sandbox itself, which is what lint's `depcruise src` already
// does with the same rules: that second spawn, ~3 s of CPU a run, is gone.)
import { execFile } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/contract/errors.js';
import { domainError } from '../../src/sandbox/models/errors.js';
import { tempDir } from '../helpers/temp.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CONFIG = join(ROOT, '.dependency-cruiser.cjs');
const DEPCRUISE = join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
}

/** dependency-cruiser's violations of `dir` (relative to `cwd`) under the repository's rules. */
function cruise(cwd: string, dir: string): Promise<Violation[]> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [DEPCRUISE, dir, '--config', CONFIG, '--output-type', 'json'], { cwd, maxBuffer: 64 * 1024 * 1024 }, (err, stdout) => {
      // Exit status 0 when clean, the number of errors otherwise: the JSON on stdout tells either way.
      try {
        resolve((JSON.parse(stdout) as { summary: { violations: Violation[] } }).summary.violations);
      } catch {
        reject(err ?? new Error('dependency-cruiser printed no JSON'));
      }
    });
  });
}

const probe = tempDir('adops-layering-');
afterAll(() => rmSync(probe, { recursive: true, force: true }));

function write(path: string, text: string): void {
  mkdirSync(dirname(join(probe, path)), { recursive: true });
  writeFileSync(join(probe, path), text);
}

describe('layering of src/sandbox', () => {
  it('the rules catch an inside file that imports http/ or Hono, and a cycle (they can fail)', async () => {
    write('tsconfig.json', '{ "compilerOptions": { "module": "NodeNext", "moduleResolution": "NodeNext" } }');
    write('src/sandbox/http/errors.ts', 'export const fail = 1;\n');
    write(
      'src/sandbox/models/probe.ts',
      "import { fail } from '../http/errors.js';\nimport type { Context } from 'hono';\nexport const x: Context | number = fail;\n",
    );
    write('src/sandbox/providers/a.ts', "import { b } from './b.js';\nexport const a = () => b;\n");
    write('src/sandbox/providers/b.ts', "import { a } from './a.js';\nexport const b = () => a;\n");
    const rules = (await cruise(probe, 'src')).map((v) => `${v.rule.name}: ${v.from}`);
    expect(rules).toEqual(
      expect.arrayContaining([
        'sandbox-inside-stays-out-of-http: src/sandbox/models/probe.ts',
        'sandbox-inside-knows-no-http-framework: src/sandbox/models/probe.ts',
        'no-circular: src/sandbox/providers/a.ts',
      ]),
    );
  }, 60_000);

  it('domainError takes its status from the error table (the inside never names one)', () => {
    expect(domainError('plan_frozen', 'x').status).toBe(ERROR_CODES.plan_frozen.status);
    expect(domainError('not_found', 'x').status).toBe(404);
  });
});
