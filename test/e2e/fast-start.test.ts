// `--version` and `--help` must not load command modules or the heavy
// dependencies. We run the built binary with a module-resolution hook
// (node --import of a tiny register file; module.register is stable in Node
// 20.6+) that appends every resolved URL to a file, then inspect that list.
// This sees every ESM import, which is how all of these are loaded.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, BIN, ensureBuilt, ROOT } from '../helpers/cli.js';

const HEAVY = ['commander', 'undici', 'zod', 'ora', '@inquirer', 'cli-table3', 'conf', '/dist/commands/', '/dist/client/'];
let dir: string;

beforeAll(() => {
  ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'adops-hook-'));
  writeFileSync(
    join(dir, 'hooks.mjs'),
    `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  appendFileSync(process.env.ADOPS_TEST_LOADED, r.url + '\\n');
  return r;
}`,
  );
  writeFileSync(join(dir, 'register.mjs'), `import { register } from 'node:module'; register(${JSON.stringify(pathToFileURL(join(dir, 'hooks.mjs')).href)});`);
});

function loaded(args: string[]): { urls: string[]; stdout: string; status: number | null } {
  const log = join(dir, `loaded-${Math.random().toString(36).slice(2)}.txt`);
  writeFileSync(log, '');
  const r = spawnSync(process.execPath, ['--import', pathToFileURL(join(dir, 'register.mjs')).href, BIN, ...args], { cwd: ROOT, env: baseEnv({ ADOPS_TEST_LOADED: log }), encoding: 'utf8' });
  return { urls: readFileSync(log, 'utf8').split('\n').filter(Boolean), stdout: r.stdout, status: r.status };
}

describe('fast start', () => {
  it('the hook sees a real command load its dependencies (the check can fail)', () => {
    const { urls } = loaded(['config', 'get', 'output']);
    expect(urls.some((u) => u.includes('commander'))).toBe(true);
  });

  for (const args of [['--version'], ['--help'], ['observe', 'campaigns', '--help'], ['help', 'sandbox']]) {
    it(`adops ${args.join(' ')} loads no command module and no heavy dependency`, () => {
      const { urls, stdout, status } = loaded(args);
      expect(status).toBe(0);
      expect(stdout.length).toBeGreaterThan(0);
      // Group definition files (commands/<group>/index.js) are plain data; handlers are not.
      const heavy = urls.filter((u) => HEAVY.some((h) => u.includes(h)) && !/\/dist\/commands\/[a-z]+\/index\.js$/.test(u));
      expect(heavy).toEqual([]);
    });
  }
});
