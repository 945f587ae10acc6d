#!/usr/bin/env node
// Bundles the CLI for start-up speed (issue #4, docs/performance.md "CLI
// start-up"). scripts/build-dist.mjs emits the per-file dist/ (the tests' helpers and
// anything importing our modules use it; no type check, `npm run lint` has it); this script, run after it by
// `npm run build`, writes dist/bundle/:
// - main.js and its chunks: src/cli/main.ts split by esbuild (as ESM: it splits
//   nothing else), so every dynamic import() (the runner, each command handler,
//   ora, inquirer, cli-table3, conf, the sandbox) stays a lazily loaded chunk,
//   and a command reads a few files instead of ~50 modules of ours plus
//   commander's; then each output rewritten as CommonJS (bundle-commonjs.mjs,
//   #37 session 8: Node 20's ESM loader was over half of `config list`), which
//   bin/adops.js require()s with a code cache per chunk made after a run of
//   `config list` (code-cache-chunks.mjs).
//   better-sqlite3 is a native addon: external; so are CommonJS packages
//   loaded with import() (see below). No plugin reaches into a dependency's
//   files: the client is on node:http (docs/decisions.md).
// - route.cjs: src/cli/launcher.ts, the one entry decision (route.ts, #26) and
//   what a launcher does with it, as one small CommonJS file bin/adops.js
//   requires first, without starting the ESM loader (`--version` is answered on
//   it alone; the single executable's main bundles the same file).
// - quick.cjs: src/cli/quick.ts (the top help page, and the lookup of the
//   pages below) as one CommonJS file, which bin/adops.js requires for a help page.
// - help-pages.cjs: every group's and command's help page, rendered now from
//   tsc's dist/cli/help-pages.js and the registry (dist/cli/commands.js), so `adops <group> <cmd>
//   --help` is a lookup in bin/adops.js (#16).
// - meta.json: which sources each output holds and which packages it leaves
//   external (esbuild's metafile, outputs only); test/e2e/fast-start.test.ts
//   and test/e2e/package.test.ts read it.
// - fast-read.cjs: the stored reads' own bundle (its plugins, shared with the
//   single executable's build, are in scripts/bundle-plugins.mjs).
// - sync-run.cjs: `assets sync`'s own bundle (src/commands/assets/sync-run.ts, #37), the same way.
// - apply-run.cjs: `mutations apply`'s own bundle (src/commands/mutations/apply-run.ts, #37 session 6), the same way.
import { build } from 'esbuild';
import {
  applyRunOnly,
  asciiOnly,
  builtinImportsRequired,
  cjsDynamicImportsExternal,
  fastReadOnly,
  launcherOnly,
  lazyCrypto,
  lazyOs,
  noDynamicImports,
  syncRunOnly,
} from './bundle-plugins.mjs';
import { chunksToCommonJs } from './bundle-commonjs.mjs';
import { copyFileSync, existsSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { execFileSync, spawn } from 'node:child_process';
import { isBuiltin } from 'node:module';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = 'dist/bundle';
rmSync(`${root}${outdir}`, { recursive: true, force: true });

// build-dist.mjs emits only what it compiles: the generated validators are plain JavaScript (src/contract/generated/*.js,
// `npm run gen`), so tsc's dist/ gets them beside the modules that import them.
for (const f of readdirSync(`${root}src/contract/generated`).filter((n) => n.endsWith('.js'))) {
  copyFileSync(`${root}src/contract/generated/${f}`, `${root}dist/contract/generated/${f}`);
}

// The version every bundle answers (src/cli/version.ts): package.json's, read here once instead of on every run (#37).
const version = { __ADOPS_VERSION__: JSON.stringify(JSON.parse(readFileSync(`${root}package.json`, 'utf8')).version) };

const common = {
  absWorkingDir: root,
  define: version,
  bundle: true,
  platform: 'node',
  target: 'node20',
  legalComments: 'none',
  metafile: true,
  logLevel: 'warning',
};

/** A one-command bundle: `entry` as one CommonJS file `out`, only what its `only` plugin lets in. */
function oneCommandBundle(entry, out, only) {
  return build({
    ...common,
    entryPoints: [entry],
    outfile: `${outdir}/${out}`,
    format: 'cjs',
    external: ['better-sqlite3'],
    plugins: [only, builtinImportsRequired, cjsDynamicImportsExternal],
    define: { ...version, 'import.meta.url': '__adopsImportMetaUrl' },
    banner: { js: "const __adopsImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  });
}

const [esm, route, cjs, fast, syncRun, applyRun] = await Promise.all([
  build({
    ...common,
    entryPoints: ['src/cli/main.ts'],
    outdir,
    // Flat, so every chunk sits at dist/cli's depth (version.ts reads ../../package.json).
    chunkNames: '[name]-[hash]',
    splitting: true,
    format: 'esm',
    external: ['better-sqlite3'],
    plugins: [cjsDynamicImportsExternal, lazyCrypto, lazyOs],
    // No banner: each output becomes CommonJS below (bundle-commonjs.mjs), where bundled CommonJS (commander, ...)
    // has require() of its own.
  }),
  build({
    ...common,
    entryPoints: ['src/cli/launcher.ts'],
    outfile: `${outdir}/route.cjs`,
    format: 'cjs',
    plugins: [noDynamicImports, launcherOnly],
  }),
  build({
    ...common,
    entryPoints: ['src/cli/quick.ts'],
    outfile: `${outdir}/quick.cjs`,
    format: 'cjs',
    plugins: [noDynamicImports, launcherOnly],
  }),
  build({
    ...common,
    entryPoints: ['src/commands/observe/fast-read.ts'],
    outfile: `${outdir}/fast-read.cjs`,
    format: 'cjs',
    external: ['better-sqlite3'],
    plugins: [fastReadOnly, lazyCrypto, lazyOs, builtinImportsRequired, cjsDynamicImportsExternal],
    // version.ts finds package.json from its own URL: this file's, in CommonJS.
    define: { ...version, 'import.meta.url': '__adopsImportMetaUrl' },
    banner: { js: "const __adopsImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  }),
  // `assets sync`'s and `mutations apply`'s own bundles (#37), built as fast-read.cjs is: one CommonJS file each that
  // bin/adops.js requires with its code cache.
  oneCommandBundle('src/commands/assets/sync-run.ts', 'sync-run.cjs', syncRunOnly),
  oneCommandBundle('src/commands/mutations/apply-run.ts', 'apply-run.cjs', applyRunOnly),
]);

// main.js and its chunks as CommonJS, loaded with require() (bundle-commonjs.mjs; #37 session 8).
const commonJsBytes = chunksToCommonJs(
  `${root}${outdir}`,
  Object.keys(esm.metafile.outputs).map((f) => `${root}${f}`),
);
for (const [f, o] of Object.entries(esm.metafile.outputs)) o.bytes = commonJsBytes[`${root}${f}`];

const outputs = {};
for (const [file, o] of Object.entries({
  ...esm.metafile.outputs,
  ...route.metafile.outputs,
  ...cjs.metafile.outputs,
  ...fast.metafile.outputs,
  ...syncRun.metafile.outputs,
  ...applyRun.metafile.outputs,
})) {
  // externals: the bare packages this output loads at run time (they must be dependencies, test/e2e/package.test.ts).
  const externals = [
    ...new Set(o.imports.filter((i) => i.external && !i.path.startsWith('node:') && !i.path.startsWith('.') && !isBuiltin(i.path)).map((i) => i.path)),
  ].sort();
  outputs[file.slice(outdir.length + 1)] = { bytes: o.bytes, inputs: Object.keys(o.inputs).sort(), externals };
}
// Per first word (`observe`, `sandbox`, ...) a JSON string, parsed on demand: a help page parses its own group's pages only.
// The registry is the one main.ts runs with (tsc's output of the module that composes it: the
// composition root src/commands/index.ts, or src/cli/commands.ts before it).
const { allHelpPages } = await import(new URL('../dist/cli/help-pages.js', import.meta.url).href);
const composer = ['../dist/commands/index.js', '../dist/cli/commands.js'].map((f) => new URL(f, import.meta.url)).find((u) => existsSync(fileURLToPath(u)));
const { getRegistry } = await import(composer.href);
const byTop = {};
for (const [path, page] of Object.entries(allHelpPages(getRegistry()))) (byTop[path.split(' ')[0]] ??= {})[path] = page;
const tops = Object.entries(byTop).map(([top, pages]) => `  ${JSON.stringify(top)}: ${JSON.stringify(JSON.stringify(pages))},`);
writeFileSync(
  `${root}${outdir}/help-pages.cjs`,
  `'use strict';\n// Written by scripts/build.mjs (src/cli/help-pages.ts): per first word, its pages as JSON.\nconst pages = {\n${tops.join('\n')}\n};\nexports.helpPages = (top) => (Object.hasOwn(pages, top) ? JSON.parse(pages[top]) : {});\n`,
);
// Data only (no code, no import): listed so a loaded file of dist/bundle is always in meta.json.
outputs['help-pages.cjs'] = { bytes: statSync(`${root}${outdir}/help-pages.cjs`).size, inputs: [], externals: [] };
// The CommonJS files a start requires, ASCII only (bundle-plugins.mjs asciiOnly): require() decodes a file as UTF-8,
// and one non-ASCII character makes V8 hold all of its source as UTF-16 (fast-read.cjs had two, in a comment and a
// regular expression; help-pages.cjs has dashes and arrows in its pages).
for (const f of ['route.cjs', 'quick.cjs', 'help-pages.cjs', 'fast-read.cjs', 'sync-run.cjs', 'apply-run.cjs']) {
  asciiOnly(`${root}${outdir}/${f}`);
  outputs[f].bytes = statSync(`${root}${outdir}/${f}`).size;
}
// V8's code cache of the stored reads' bundle for the Node that builds (bin/code-cache.cjs reads it), made in a
// child after a real stored read against an in-memory sandbox (scripts/code-cache-after-read.mjs, as build-sea.mjs
// does for the executable: the ~300 functions a read calls are in it, not only set-up's; #37 session 4: a stored
// read 223-226 M -> 195-198 M instructions). Should that read fail here, the cache after the top level only, as before.
// The code caches below are made in children that do not depend on each other but for main.js's two runs (the
// second caches only what the first did not load): they run at once, ~2 s less of the build's wall time on two
// cores (#37 session 9), each child's work as before.
const MCP_INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'build', version: '0' } },
});
await Promise.all([
  // V8's code cache of the stored reads' bundle for the Node that builds (bin/code-cache.cjs reads it), made in a
  // child after a real stored read against an in-memory sandbox (scripts/code-cache-after-read.mjs, as build-sea.mjs
  // does for the executable: the ~300 functions a read calls are in it, not only set-up's; #37 session 4: a stored
  // read 223-226 M -> 195-198 M instructions). Should that read fail here, the cache after the top level only, as before.
  cacheAfterRun('stored read', 'scripts/code-cache-after-read.mjs', 'fast-read.cjs', ['--npm']),
  // The sync bundle's code cache likewise, made after a real sync (a re-run and an upload) against an in-memory sandbox
  // (scripts/code-cache-after-sync.mjs; #37 session 5).
  cacheAfterRun('sync', 'scripts/code-cache-after-sync.mjs', 'sync-run.cjs'),
  // apply's likewise, made after a real apply of a small file of changes (scripts/code-cache-after-apply.mjs; #37 session 6).
  cacheAfterRun('apply', 'scripts/code-cache-after-apply.mjs', 'apply-run.cjs'),
  // main.js's chunks likewise, after a run of `config list`, then of `mcp` answering an initialize (the chunks the
  // first did not load; scripts/code-cache-chunks.mjs; #37 session 8).
  (async () => {
    for (const [argv, input] of [
      [['config', 'list', '--json'], ''],
      [['mcp'], `${MCP_INITIALIZE}\n`],
    ]) {
      const ran = await child(['scripts/code-cache-chunks.mjs', outdir, ...argv], input);
      if (ran.status !== 0)
        process.stderr.write(
          `build: \`${argv.join(' ')}\` for main.js's chunks' code cache failed (exit ${ran.status}); they load without one:\n${ran.stderr}`,
        );
    }
  })(),
]);
writeFileSync(`${root}${outdir}/meta.json`, JSON.stringify({ outputs }, null, 1) + '\n');
// The sandbox's prebuilt demo world, beside the bundle (dist/bundle/demo-world.db).
await import('./build-sandbox-snapshot.mjs');

/**
 * A one-command bundle's code cache for the Node that builds, made by `script` in a child after a real `what` against
 * an in-memory sandbox; should that run fail here, the cache after the bundle's top level only, and the build says why.
 */
async function cacheAfterRun(what, script, file, args = []) {
  const ran = await child([script, `${outdir}/${file}`, ...args]);
  if (ran.status === 0) return;
  process.stderr.write(`build: the ${what} for ${file}'s code cache failed (exit ${ran.status}); caching its set-up only:\n${ran.stderr}`);
  execFileSync(process.execPath, ['-e', `require('./bin/code-cache.cjs').writeCodeCache(require('node:path').resolve('${outdir}/${file}'))`], {
    cwd: root,
    stdio: 'inherit',
  });
}

/** `node ...args` in the project, stdin `input`, stdout ignored: its exit status and stderr. */
function child(args, input = '') {
  return new Promise((resolve, reject) => {
    const c = spawn(process.execPath, args, { cwd: root, stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = '';
    c.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
    c.on('error', reject);
    c.on('close', (status) => resolve({ status, stderr }));
    c.stdin.end(input);
  });
}
