// What `npm pack` ships is what runs (issue #18 item 5): the esbuild bundle,
// not tsc's dist/* beside it; `dependencies` are exactly the packages the bundle
// loads at run time (everything bundled is a devDependency, so an install does
// not fetch a second copy of it), and the native SQLite module is optional.
// The packed tarball itself is installed and run by .ci/run (pack step).
import { cpSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { imagesInMemory } from '../../src/sandbox/store/sqlite.js';
import { beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, bundleOutputs, DEMO, fileHolding, ROOT, tempConfigDir, type BundleOutput } from '../helpers/cli.js';
import { spawnAsync } from '../helpers/spawn-async.js';
import { tempDir } from '../helpers/temp.js';

interface Pkg {
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  scripts: Record<string, string>;
}
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Pkg;
/** Loaded with createRequire, out of esbuild's sight (src/sandbox/store/sqlite.ts). */
const LOADED_BY_REQUIRE = ['better-sqlite3'];

let outputs: Record<string, BundleOutput>;
beforeAll(() => {
  outputs = bundleOutputs();
});

const packageOf = (input: string): string | undefined => {
  const parts = input.split('node_modules/').at(-1)!.split('/');
  return input.includes('node_modules/') ? (parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]) : undefined;
};

describe('dependencies are what the bundle loads', () => {
  it('every package the bundle leaves external is a dependency', () => {
    const external = new Set(Object.values(outputs).flatMap((o) => o.externals));
    const declared = Object.keys(pkg.dependencies ?? {});
    expect([...external].sort()).toEqual(declared.sort());
  });

  it('no dependency is also bundled (it would be installed a second time)', () => {
    const bundled = new Set(
      Object.values(outputs)
        .flatMap((o) => o.inputs.map(packageOf))
        .filter((p): p is string => p !== undefined),
    );
    const runtime = [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.optionalDependencies ?? {})];
    expect(runtime.filter((d) => bundled.has(d))).toEqual([]);
  });

  it('the native SQLite module is optional (node:sqlite on Node 22.15+), and built on pack', () => {
    expect(Object.keys(pkg.optionalDependencies ?? {})).toEqual(LOADED_BY_REQUIRE);
    expect(pkg.dependencies).not.toHaveProperty('better-sqlite3');
    expect(pkg.scripts.prepack).toBe('npm run build');
  });
});

it('the tarball holds the bundle, docs and completions, not tsc output', () => {
  const r = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  const files = (JSON.parse(r.stdout) as Array<{ files: Array<{ path: string }> }>)[0]!.files.map((f) => f.path);
  expect(files).toContain('bin/adops.js');
  expect(files).toContain('dist/bundle/main.js');
  expect(files).toContain('dist/bundle/quick.cjs');
  // main.js and its chunks are CommonJS in a "type": "module" package: dist/bundle/package.json says so (without
  // it an install loads them as ES modules and fails on their first require()).
  expect(files).toContain('dist/bundle/package.json');
  expect(files).toContain('package.json');
  // The man page (package.json `man`: `man adops` after a global install, #29).
  expect(files).toContain('man/adops.1');
  // The prebuilt demo world (src/sandbox/fixtures/snapshot.ts), beside the chunk that looks for it.
  expect(files).toContain('dist/bundle/demo-world.db');
  const stray = files.filter(
    (f) => !/^(bin\/|dist\/bundle\/([^/]+\.c?js|demo-world\.db|package\.json)$|completions\/|man\/adops\.1$|docs\/|README\.md$|package\.json$|LICENSE)/.test(f),
  );
  expect(stray).toEqual([]);
});

/** startSandbox of the bundle that ships (the chunk holding src/sandbox/index.ts), as `adops sandbox serve` runs it. */
async function bundledSandbox(): Promise<typeof import('../../src/sandbox/index.js')> {
  const chunk = fileHolding(outputs, 'src/sandbox/index.ts');
  return (await import(pathToFileURL(join(ROOT, 'dist', 'bundle', chunk)).href)) as typeof import('../../src/sandbox/index.js');
}

it('the bundle starts the demo world from the image it ships, in memory and on a new file', async () => {
  const { startSandbox } = await bundledSandbox();
  for (const data of [':memory:', join(tempDir('adops-first-start-'), 'sandbox.db')]) {
    const sb = await startSandbox({ port: 0, data, quiet: true, ticker: false });
    try {
      // In memory it needs better-sqlite3 or a node:sqlite with deserialize(); a file copy works with both.
      expect(sb.world).toBe(data !== ':memory:' || imagesInMemory() ? 'snapshot' : 'generated');
      const res = await fetch(`${sb.url}/observe/campaigns?advertiserId=acc_acme_a_001&limit=2`, { headers: { authorization: `Bearer ${DEMO.full}` } });
      const body = (await res.json()) as { data: Array<{ createdAt: number }> };
      expect(res.status).toBe(200);
      // Moved to this start's clock, as a world generated now would carry.
      for (const row of body.data) expect(Math.abs(row.createdAt - Date.now())).toBeLessThan(60_000);
    } finally {
      await sb.close();
    }
  }
}, 60_000);

describe('an install without the optional native module (it could not be built)', () => {
  // A copy of what ships, beside a node_modules that has everything but better-sqlite3.
  let root: string;
  beforeAll(() => {
    root = tempDir('adops-no-native-');
    for (const part of ['bin', 'dist/bundle', 'package.json']) cpSync(join(ROOT, part), join(root, part), { recursive: true });
    mkdirSync(join(root, 'node_modules'));
    for (const name of readdirSync(join(ROOT, 'node_modules'))) {
      if (name !== 'better-sqlite3' && name !== '.bin') symlinkSync(join(ROOT, 'node_modules', name), join(root, 'node_modules', name));
    }
  });
  const adops = (args: string[], env: Record<string, string> = {}) =>
    spawnSync(process.execPath, [join(root, 'bin', 'adops.js'), ...args], {
      encoding: 'utf8',
      timeout: 20_000,
      env: baseEnv({ ADOPS_CONFIG_DIR: tempConfigDir(), ...env }),
    });

  it('the client runs: --version and a read against a sandbox', async () => {
    expect(adops(['--version']).stdout.trim()).toBe((JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version);
    // The service it reads from is the shipped bundle's sandbox in this process (a `sandbox serve` child cost a
    // process start and ~1.5 s of CPU): what is checked is the client copy without the native module.
    const sb = await (await bundledSandbox()).startSandbox({ port: 0, data: ':memory:', quiet: true, ticker: false });
    try {
      // Not spawnSync: this process answers it.
      const r = await spawnAsync(process.execPath, [join(root, 'bin', 'adops.js'), 'observe', 'campaigns', '--advertiser', 'acc_acme_a_001', '-o', 'json'], {
        timeout: 20_000,
        env: baseEnv({ ADOPS_CONFIG_DIR: tempConfigDir(), ADOPS_BASE_URL: sb.url, ADOPS_API_KEY: DEMO.full }),
      });
      expect(r.status, r.stderr).toBe(0);
      expect((JSON.parse(r.stdout) as unknown[]).length).toBeGreaterThan(0);
    } finally {
      await sb.close();
    }
  }, 60_000);

  it('sandbox serve on better-sqlite3 (Node 20) says what is missing: exit 1, sqlite_unavailable', () => {
    const r = adops(['sandbox', 'serve', '--port', '0', '--data', ':memory:'], { ADOPS_SQLITE_DRIVER: 'better-sqlite3' });
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('sqlite_unavailable');
    expect(r.stderr).toMatch(/better-sqlite3 is not installed/);
    expect(r.stderr).toMatch(/hint: use Node 22\.15 or newer/);
    expect(r.stderr).not.toMatch(/bug in adops/);
  });
});

it('a checkout that was never built says to build, not MODULE_NOT_FOUND', () => {
  const root = tempDir('adops-unbuilt-');
  for (const part of ['bin', 'package.json']) cpSync(join(ROOT, part), join(root, part), { recursive: true });
  for (const args of [['--help'], ['observe', 'campaigns']]) {
    const r = spawnSync(process.execPath, [join(root, 'bin', 'adops.js'), ...args], { encoding: 'utf8', env: baseEnv() });
    expect(r.status).toBe(1);
    expect(r.stderr).toBe('adops: dist/bundle is missing: run `npm run build` in this checkout (or reinstall the package)\n');
  }
});
