#!/usr/bin/env node
// `npm run build:sea`: adops as one file, a single executable application
// (Node's SEA support) that needs no Node on the machine and no native module:
// it runs on Node 24's own runtime, whose node:sqlite serves `sandbox serve`
// and `demo` (docs/decisions.md "One file to download (#29)").
//
// 1. Node 24 (the runtime carried inside) and postject (which writes the blob
//    into a copy of it) come from the npm registry, as .ci/node-matrix gets its
//    Nodes: `npm install node@24 postject` into a cache directory
//    (ADOPS_SEA_CACHE, else a new temporary one), never into node_modules;
//    only postject when ADOPS_SEA_NODE names a Node 24 already here (CI).
// 2. esbuild bundles src/cli/main.ts into ONE CommonJS file (adops.cjs): no
//    chunks, every lazy import() inlined, nothing external (the bundle of
//    `npm run build` keeps better-sqlite3 and a few CommonJS packages external;
//    here node:sqlite is always there, so better-sqlite3 is never loaded). The
//    launcher's small files are built as the npm install's are: the stored
//    reads' bundle (fast-read.cjs), quick.cjs and the rendered help pages. None
//    of them is the SEA's main: that is scripts/sea-main.mjs (the entry
//    decision and --version, ~10 KB), which compiles the one a run needs from
//    its asset with V8's code cache, made here by the same Node 24 (#37: the
//    whole CLI as main cost `--version` 1.6x `node -e 0`; a start-up snapshot,
//    `useSnapshot`, was measured and not kept: docs/performance.md).
// 3. Files the code finds beside its module (package.json for the version, the
//    demo world's image dist/bundle/demo-world.db) become SEA assets, as do the
//    bundles and their code caches; the few
//    lines that look for them are swapped at bundle time (SEA_SWAPS below, each
//    checked to match exactly once, so a changed source fails this build
//    instead of building an executable that looks in the wrong place).
// 4. `node --experimental-sea-config` writes the blob; postject injects it
//    into a copy of that same Node binary.
//
// Writes dist/sea/adops-<platform>-<arch> (this machine's: linux-x64 in CI).
// Its last line is the path it wrote.
import { build } from 'esbuild';
import { asciiOnly, fastReadOnly, launcherOnly, lazyCrypto, lazyOs, noDynamicImports } from './bundle-plugins.mjs';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const NODE_MAJOR = '24';
const POSTJECT = 'postject@1.0.0-alpha.6';
// The fuse Node's binary carries for SEA (its documentation; the same string since Node 18.16).
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

const say = (line) => process.stderr.write(`build:sea: ${line}\n`);
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

// ---- 1. Node 24 and postject ----------------------------------------------
// A cache of our own (no ADOPS_SEA_CACHE) is removed at the end: ~130 MB of Node per build.
const ownCache = !process.env.ADOPS_SEA_CACHE;
const cache = process.env.ADOPS_SEA_CACHE || mkdtempSync(join(tmpdir(), 'adops-sea-'));
// Removed however the build ends (a failed step too), not only after a build that wrote the executable.
if (ownCache) process.on('exit', () => rmSync(cache, { recursive: true, force: true }));
mkdirSync(cache, { recursive: true });
// ADOPS_SEA_NODE: a Node 24 binary this machine already has (CI's one install of it per run, .ci/node-bin): then only
// postject is installed here (#37 session 5: node@24 was installed three times a run, ~9 s of CPU each).
const givenNode = process.env.ADOPS_SEA_NODE;
if (givenNode && !existsSync(givenNode)) throw new Error(`build:sea: ADOPS_SEA_NODE names no file: ${givenNode}`);
const nodeBin = givenNode || join(cache, 'node_modules', 'node', 'bin', 'node');
const postjectCli = join(cache, 'node_modules', 'postject', 'dist', 'cli.js');
if (!existsSync(nodeBin) || !existsSync(postjectCli)) {
  const wanted = givenNode ? [POSTJECT] : [`node@${NODE_MAJOR}`, POSTJECT];
  say(`installing ${wanted.join(' and ')} from the npm registry into ${cache}`);
  execFileSync('npm', ['install', '--prefix', cache, '--no-audit', '--no-fund', '--no-save', '--loglevel=error', ...wanted], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}
const runtime = JSON.parse(execFileSync(nodeBin, ['-p', 'JSON.stringify([process.version, process.platform, process.arch])'], { encoding: 'utf8' }));
const [nodeVersion, platform, arch] = runtime;
if (!nodeVersion.startsWith(`v${NODE_MAJOR}.`)) throw new Error(`build:sea: ${nodeBin} is ${nodeVersion}, not Node ${NODE_MAJOR}`);
say(`runtime: Node ${nodeVersion} (${platform}-${arch})`);

// ---- 2 and 3. the one-file bundle -------------------------------------------
const image = join(root, 'dist', 'bundle', 'demo-world.db');
if (!existsSync(image)) {
  say('dist/bundle/demo-world.db is missing: npm run build');
  execFileSync('npm', ['run', 'build'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
}
const outDir = join(root, 'dist', 'sea');
rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });

// What is swapped, in which file, for what (each `from` must occur exactly once).
const SEA_SWAPS = [
  {
    file: 'src/cli/main.ts',
    why: "a CommonJS file (what Node 24's SEA runs) cannot hold main.ts's top-level await",
    from: 'await finish(await main(process.argv.slice(2)));',
    to: 'void main(process.argv.slice(2)).then(finish);',
  },
  {
    file: 'src/cli/version.ts',
    why: 'package.json is an asset of the executable, not a file beside it',
    from: "readFileSync(new URL('../../package.json', import.meta.url), 'utf8')",
    to: "__adopsSea.getAsset('package.json', 'utf8')",
  },
  {
    file: 'src/sandbox/fixtures/snapshot.ts',
    why: 'the demo world image is an asset: written once to a cache file the sandbox opens or copies as before',
    from: 'return fileURLToPath(new URL(`./${DEMO_SNAPSHOT_FILE}`, import.meta.url));',
    to: 'return __adopsSeaFile(DEMO_SNAPSHOT_FILE);',
  },
];
const swapped = new Set();
const seaSwaps = {
  name: 'sea-swaps',
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, (args) => {
      const swaps = SEA_SWAPS.filter((s) => args.path === join(root, s.file));
      if (swaps.length === 0) return undefined;
      let source = readFileSync(args.path, 'utf8');
      for (const swap of swaps) {
        const parts = source.split(swap.from);
        if (parts.length !== 2) {
          throw new Error(`${swap.file} should hold \`${swap.from}\` once (${parts.length - 1} found): update SEA_SWAPS (${swap.why})`);
        }
        source = parts.join(swap.to);
        swapped.add(swap);
      }
      return { contents: source, loader: 'ts' };
    });
  },
};

// Runs before each bundle: the asset reader and the cache file of an asset (the entry drops the launcher's argv).
const banner = `'use strict';
const __adopsSea = require('node:sea');
// The bundle's modules ask import.meta.url where they are: nowhere on disk (no package.json above it).
const __adopsSeaUrl = 'file:///adops-single-executable/adops.cjs';
// An asset as a file (the sandbox opens or copies its demo world image by path): written once per
// version and content under the user's cache dir, renamed into place, so a reader never sees half of it.
function __adopsSeaFile(name) {
  const fs = require('node:fs'), path = require('node:path'), os = require('node:os');
  const bytes = Buffer.from(__adopsSea.getRawAsset(name));
  const digest = require('node:crypto').createHash('sha256').update(bytes).digest('hex').slice(0, 16);
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  for (const dir of [path.join(base, 'adops', 'sea-' + digest), path.join(os.tmpdir(), 'adops-sea-' + process.getuid?.() + '-' + digest)]) {
    const file = path.join(dir, name);
    try {
      if (fs.existsSync(file) && fs.statSync(file).size === bytes.length) return file;
      fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
      const part = file + '.part-' + process.pid;
      fs.writeFileSync(part, bytes, { mode: 0o600 });
      fs.renameSync(part, file);
      return file;
    } catch {
      // not writable here: the next place, else none (the sandbox then generates its world)
    }
  }
  return path.join(os.tmpdir(), 'adops-sea-no-cache', name);
}
`;

// Each bundle is an asset the entry (scripts/sea-main.mjs) compiles when it needs it: wrapped here as a
// function expression of (exports, require, module), the entry's require being Node's built-in modules.
const common = {
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  target: 'node24',
  format: 'cjs',
  legalComments: 'none',
  logLevel: 'warning',
  // Never loaded here (node:sqlite is complete on Node 24), and a native module cannot be inside.
  external: ['better-sqlite3'],
  // The version as the npm bundles have it (src/cli/version.ts): no asset read for it on a run (#37).
  define: { 'import.meta.url': '__adopsSeaUrl', __ADOPS_VERSION__: JSON.stringify(pkg.version) },
  banner: { js: `(function (exports, require, module) {\n${banner}` },
  footer: { js: '\n})' },
};
const bundleFile = join(outDir, 'adops.cjs');
const fastReadFile = join(outDir, 'fast-read.cjs');
const quickFile = join(outDir, 'quick.cjs');
const helpPagesFile = join(outDir, 'help-pages.cjs');
const entryFile = join(outDir, 'sea-main.cjs');
// The group and command pages the npm build rendered (scripts/build.mjs), wrapped as the bundles are.
writeFileSync(helpPagesFile, `(function (exports, require, module) {\n${readFileSync(join(root, 'dist', 'bundle', 'help-pages.cjs'), 'utf8')}\n})`);
await Promise.all([
  build({ ...common, entryPoints: ['src/cli/main.ts'], outfile: bundleFile, plugins: [seaSwaps] }),
  // The stored reads' own bundle, built as the npm install's is (scripts/bundle-plugins.mjs), with the SEA's swaps.
  build({ ...common, entryPoints: ['src/commands/observe/fast-read.ts'], outfile: fastReadFile, plugins: [seaSwaps, fastReadOnly, lazyCrypto, lazyOs] }),
  // The top help page and the lookup of the others, as the npm install's quick.cjs.
  build({ ...common, entryPoints: ['src/cli/quick.ts'], outfile: quickFile, plugins: [seaSwaps, noDynamicImports, launcherOnly] }),
  // The entry: the launcher and the entry decision (route.ts) only, as small as bin/adops.js's share of a start.
  build({
    absWorkingDir: root,
    entryPoints: ['scripts/sea-main.mjs'],
    outfile: entryFile,
    bundle: true,
    platform: 'node',
    target: 'node24',
    format: 'cjs',
    legalComments: 'none',
    logLevel: 'warning',
    define: { __ADOPS_VERSION__: JSON.stringify(pkg.version) },
    plugins: [noDynamicImports, launcherOnly],
  }),
]);
const missed = SEA_SWAPS.filter((s) => !swapped.has(s));
if (missed.length > 0) throw new Error(`build:sea: not in the bundle any more: ${missed.map((s) => s.file).join(', ')} (update SEA_SWAPS)`);
say(
  `bundles: the whole CLI ${(statSync(bundleFile).size / 1e6).toFixed(1)} MB, stored reads ${(statSync(fastReadFile).size / 1e3).toFixed(0)} KB, entry ${(statSync(entryFile).size / 1e3).toFixed(0)} KB`,
);

// Every bundle ASCII only (bundle-plugins.mjs asciiOnly): a non-ASCII character made V8 hold a whole source as UTF-16.
const bundles = [bundleFile, fastReadFile, quickFile, helpPagesFile];
for (const file of bundles) asciiOnly(file);

// V8's code cache of each bundle, made by the Node that runs them (a cache from another V8 is refused): the stored
// reads' after a real stored read (scripts/code-cache-after-read.mjs: the functions a read calls are in it too), the
// small ones after their modules are set up (their top level run: it has no effect but definitions), so the functions
// that set-up compiled are in it, the whole CLI's after compiling only (running it would run the CLI).
// The read's stderr (its `next cursor:` note) is shown only when it failed.
const read = spawnSync(nodeBin, [join(root, 'scripts', 'code-cache-after-read.mjs'), fastReadFile, `${fastReadFile}.cache`], {
  stdio: ['ignore', 'ignore', 'pipe'],
  encoding: 'utf8',
});
if (read.status !== 0 || !existsSync(`${fastReadFile}.cache`))
  throw new Error(`build:sea: the stored read at build time failed (exit ${read.status}): ${read.stderr}`);
execFileSync(
  nodeBin,
  [
    '-e',
    `const { Script, constants } = require('node:vm'), fs = require('node:fs');
for (const [file, run] of ${JSON.stringify([
      [bundleFile, false],
      [quickFile, true],
      [helpPagesFile, true],
    ])}) {
  const script = new Script(fs.readFileSync(file, 'utf8'), { filename: file, importModuleDynamically: constants.USE_MAIN_CONTEXT_DEFAULT_LOADER });
  if (run) script.runInThisContext()({}, require, { exports: {} });
  fs.writeFileSync(file + '.cache', script.createCachedData());
}`,
  ],
  { stdio: ['ignore', 'ignore', 'inherit'] },
);

// ---- 4. the blob, injected into a copy of Node 24 ---------------------------
const blob = join(outDir, 'sea-prep.blob');
const packageJson = join(outDir, 'package.json');
writeFileSync(packageJson, JSON.stringify({ name: pkg.name, version: pkg.version }) + '\n');
// The executable's assets (sea-main.mjs reads each by name): each bundle with its code cache, the version's
// package.json and the demo world's image.
const assets = [
  { name: 'package.json', file: packageJson },
  { name: 'demo-world.db', file: image },
  ...bundles.flatMap((file) => [
    { name: basename(file), file },
    { name: `${basename(file)}.cache`, file: `${file}.cache` },
  ]),
];
const config = join(outDir, 'sea-config.json');
writeFileSync(
  config,
  JSON.stringify(
    {
      main: entryFile,
      output: blob,
      disableExperimentalSEAWarning: true,
      // V8's compiled code for the entry (the bundles' own caches are assets, above).
      useCodeCache: true,
      // A young generation of 2 MB from the start (V8's default starts at 1 MB): a stored read allocates ~1.4 MB of
      // young objects (the bundle's set-up, the page, its check and output) and so ran one scavenge, ~2.7 M
      // instructions and ~115 page faults, that bare node:http's read never runs; pages are touched only as used
      // (peak RSS unchanged). V8's code caches are taken under it (the flag is not part of their check).
      // docs/performance.md "#37 (session 7)".
      execArgv: ['--min-semi-space-size=2'],
      assets: Object.fromEntries(assets.map((a) => [a.name, a.file])),
    },
    null,
    2,
  ),
);
execFileSync(nodeBin, ['--experimental-sea-config', config], { stdio: ['ignore', 'ignore', 'inherit'] });

const exe = join(outDir, `adops-${platform}-${arch}`);
copyFileSync(nodeBin, exe);
chmodSync(exe, 0o755);
const injected = spawnSync(process.execPath, [postjectCli, exe, 'NODE_SEA_BLOB', blob, '--sentinel-fuse', SEA_FUSE], { encoding: 'utf8' });
// LIEF (inside postject) warns once per ELF note of the npm package's Node it cannot name; they are kept as they were.
const lief = /^warning: Can't find string offset for section name/;
for (const line of injected.stderr.split('\n')) if (line && !lief.test(line)) process.stderr.write(`${line}\n`);
if (injected.status !== 0) throw new Error(`build:sea: postject failed (exit ${injected.status})`);
// The executable holds them all now (dist/sea keeps the whole CLI's bundle, adops.cjs, for a look at what it holds).
for (const f of [blob, config, packageJson, entryFile, ...assets.filter((a) => a.file.startsWith(outDir) && a.file !== bundleFile).map((a) => a.file)])
  rmSync(f, { force: true });

say(`wrote ${(statSync(exe).size / 1e6).toFixed(1)} MB (adops ${pkg.version} on Node ${nodeVersion})`);
process.stdout.write(`${exe}\n`);
