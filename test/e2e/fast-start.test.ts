// `--version` and `--help` must not load command modules or the heavy
// dependencies. We run the built binary with a register file (node --import;
// module.register is stable in Node 20.6+) that appends every file loaded to a
// list: every resolved ESM URL (a resolution hook) and every CommonJS require
// (bin/adops.js requires dist/bundle/route.cjs, package.json, dist/bundle/quick.cjs). The CLI
// runs from the esbuild bundle (dist/bundle/, scripts/build.mjs), where
// commander, undici, zod, ... live inside chunks: dist/bundle/meta.json says
// which sources each chunk holds, so a loaded chunk counts as what it holds.
import { readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, BIN, bundleOutputs, DEMO, ROOT, startSandboxChild, type BundleOutput, type SandboxChild } from '../helpers/cli.js';
import { writeLoadHooks } from '../helpers/load-hooks.js';
import { tempDir } from '../helpers/temp.js';

const HEAVY = [
  'node_modules/commander/',
  'node_modules/undici/',
  'node_modules/zod/',
  'node_modules/ora/',
  'node_modules/@inquirer/',
  'node_modules/cli-table3/',
  'node_modules/tinyglobby/',
  'node_modules/conf/',
  'src/commands/',
  'src/client/',
  'src/sandbox/',
  '/dist/commands/',
  '/dist/client/',
];
// Definitions are plain data: the composition root (commands/index), the group files (commands/<group>/index) and the
// operation-command factory with what it reads (commands/_shared/operation-command, -data). Handlers are not.
const DEFINITIONS = /src\/commands\/(?:[a-z]+\/)?index\.ts$|src\/commands\/_shared\/operation-(?:command|data)\.ts$/;
// Client files of plain data that import nothing: the proxy variables' names (the entry decision, src/cli/route.ts,
// reads them) and --wait's poll pace (the --interval flag's help is made from it).
const PLAIN_CLIENT_DATA = /src\/client\/(?:proxy-variables|poll-pace)\.ts$/;
const isHeavy = (source: string) => HEAVY.some((h) => source.includes(h)) && !DEFINITIONS.test(source) && !PLAIN_CLIENT_DATA.test(source);

let dir: string;
/** `node ...hookArgs bin/adops.js`: test/helpers/load-hooks.ts. */
let hookArgs: string[];
let bundle: Record<string, BundleOutput>;

beforeAll(() => {
  bundle = bundleOutputs();
  dir = tempDir('adops-hook-');
  hookArgs = writeLoadHooks(dir, 'resolve-filename');
});

/** Each loaded file, with the sources it holds (a bundle output's inputs, or the file itself). */
function loaded(
  args: string[],
  env: Record<string, string> = {},
): { files: Array<{ url: string; sources: string[] }>; stdout: string; stderr: string; status: number | null } {
  const log = join(dir, `loaded-${Math.random().toString(36).slice(2)}.txt`);
  writeFileSync(log, '');
  const r = spawnSync(process.execPath, [...hookArgs, BIN, ...args], {
    cwd: ROOT,
    env: baseEnv({ ADOPS_TEST_LOADED: log, ...env }),
    encoding: 'utf8',
  });
  const urls = [...new Set(readFileSync(log, 'utf8').split('\n').filter(Boolean))];
  const bundleDir = pathToFileURL(join(ROOT, 'dist', 'bundle')).href + '/';
  const files = urls.map((url) => {
    const output = url.startsWith(bundleDir) ? bundle[url.slice(bundleDir.length)] : undefined;
    if (url.startsWith(bundleDir) && !output) throw new Error(`${url} is not in dist/bundle/meta.json: stale build?`);
    return { url, sources: output ? output.inputs : [url.startsWith('file:') ? fileURLToPath(url) : url] };
  });
  return { files, stdout: r.stdout, stderr: r.stderr, status: r.status };
}

const heavyIn = (files: Array<{ url: string; sources: string[] }>) =>
  files.flatMap((f) => f.sources.filter(isHeavy).map((s) => `${s} (in ${f.url.replace(/.*\//, '')})`));

describe('fast start', () => {
  it('the check sees a real command load its dependencies (it can fail)', () => {
    // An option before the command's words: commander parses it (plain argv is read without it, src/cli/program.ts).
    const { files, status } = loaded(['--json', 'config', 'get', 'output']);
    expect(status).toBe(0);
    expect(files.some((f) => f.url.includes('/dist/bundle/main.js'))).toBe(true);
    expect(heavyIn(files).some((s) => s.includes('node_modules/commander/'))).toBe(true);
    expect(heavyIn(files).some((s) => s.includes('src/commands/config/get.ts'))).toBe(true);
  });

  it('the client files let onto the help path are plain data: they import nothing', () => {
    for (const file of ['src/client/proxy-variables.ts', 'src/client/poll-pace.ts']) {
      expect(PLAIN_CLIENT_DATA.test(file)).toBe(true);
      expect(readFileSync(join(ROOT, file), 'utf8'), file).not.toMatch(/^\s*(?:import|export .* from)\b/m);
    }
  });

  it('the bundle keeps heavy dependencies out of the chunks every command loads', () => {
    const main = bundle['main.js']!;
    expect(main.inputs.filter(isHeavy)).toEqual([]);
    expect(bundle['quick.cjs']!.inputs.filter(isHeavy)).toEqual([]);
    expect(bundle['route.cjs']!.inputs.filter(isHeavy)).toEqual([]);
  });

  it('the launcher files hold what their exports reach, not the operation table (scripts/build.mjs, launcher-tree-shaking)', () => {
    // registry.ts is there for its global options only; it imports the contract's operation table (16 KB), which neither needs.
    // The top help's exit codes name the statuses of the answer table's rows (#35): those rows, nothing else of the contract.
    const helpRows = 'src/contract/status-dispositions.ts';
    for (const file of ['quick.cjs', 'route.cjs'])
      expect(
        bundle[file]!.inputs.filter((s) => s.startsWith('src/contract/') && s !== helpRows),
        file,
      ).toEqual([]);
    expect(bundle['quick.cjs']!.inputs).toContain(helpRows);
    expect(bundle['route.cjs']!.inputs).toContain('src/cli/registry.ts');
  });

  for (const args of [['--version'], ['--help'], [], ['help'], ['observe', 'campaigns', '--help'], ['help', 'sandbox'], ['help', '--json']]) {
    it(`adops ${args.join(' ')} loads no command module and no heavy dependency`, () => {
      const { files, stdout, status } = loaded(args);
      expect(status).toBe(0);
      expect(stdout.length).toBeGreaterThan(0);
      expect(heavyIn(files)).toEqual([]);
    });
  }

  it('adops --version, adops version and --help never start main.js (bin/adops.js answers them on the entry decision, route.cjs)', () => {
    for (const args of [['--version'], ['version'], ['--help']]) {
      const { files } = loaded(args);
      expect(files.filter((f) => f.url.includes('/dist/')).map((f) => f.url.replace(/.*\/dist\//, 'dist/'))).toEqual(
        args[0] === '--help' ? ['dist/bundle/route.cjs', 'dist/bundle/quick.cjs'] : ['dist/bundle/route.cjs'],
      );
    }
  });

  // undici is for proxies only (#14): loaded when a proxy variable applies to the request's origin, never otherwise.
  describe('undici', () => {
    let sandbox: SandboxChild;
    beforeAll(async () => {
      // A child, not the in-process sandbox: loaded() waits in spawnSync, so nothing in this process could answer.
      sandbox = await startSandboxChild();
    }, 60_000);
    afterAll(async () => {
      await sandbox?.stop();
    });
    const undiciIn = (files: Array<{ url: string; sources: string[] }>) => heavyIn(files).filter((s) => s.includes('node_modules/undici/'));
    const read = ['observe', 'campaigns', '--limit', '1', '-o', 'json'];
    const env = () => ({ ADOPS_BASE_URL: sandbox.url, ADOPS_API_KEY: DEMO.full, ADOPS_CONFIG_DIR: join(dir, 'cfg') });

    it('a read without proxy variables does not load it, nor does one whose origin NO_PROXY exempts', () => {
      const plain = loaded(read, env());
      expect(plain.status, plain.stderr).toBe(0);
      expect(JSON.parse(plain.stdout)).toHaveLength(1);
      expect(undiciIn(plain.files)).toEqual([]);
      // An https origin NO_PROXY lists: the decision is made without undici (the connection then fails: nothing listens there).
      const exempt = loaded([...read, '--retries', '0'], {
        ...env(),
        ADOPS_BASE_URL: 'https://localhost:9',
        HTTPS_PROXY: 'http://127.0.0.1:9',
        NO_PROXY: 'localhost',
      });
      expect(exempt.status).toBe(6);
      expect(exempt.stderr).toContain('cannot connect to https://localhost:9');
      expect(undiciIn(exempt.files)).toEqual([]);
    });

    it('a read whose https origin a proxy variable applies to loads it (the check can fail)', () => {
      const r = loaded([...read, '--retries', '0'], { ...env(), ADOPS_BASE_URL: 'https://ads.corp.test', HTTPS_PROXY: 'http://127.0.0.1:9' });
      expect(r.status).toBe(6);
      expect(r.stderr).toContain('cannot reach the proxy http://127.0.0.1:9');
      expect(undiciIn(r.files).length).toBeGreaterThan(0);
    });
  });
});
