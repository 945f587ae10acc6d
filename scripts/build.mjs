#!/usr/bin/env node
// Bundles the CLI for start-up speed (issue #4, docs/performance.md "CLI
// start-up"). `tsc` still type-checks and emits dist/ (the tests' helpers and
// anything importing our modules use it); this script, run after it by
// `npm run build`, writes dist/bundle/:
// - main.js and its chunks: src/cli/main.ts as ESM with code splitting, so
//   every dynamic import() (the runner, each command handler, ora, inquirer,
//   cli-table3, conf, the sandbox) stays a lazily loaded chunk, and a command
//   reads a few files instead of ~50 modules of ours plus commander's.
//   better-sqlite3 is a native addon: external; so are CommonJS packages
//   loaded with import() (see below). No plugin reaches into a dependency's
//   files: the client is on node:http (docs/decisions.md).
// - route.cjs: src/cli/route.ts, the one entry decision (#26), as one small
//   CommonJS file bin/adops.js requires first, without starting the ESM loader
//   (`--version` is answered on it alone).
// - quick.cjs: src/cli/quick.ts (the top help page, and the lookup of the
//   pages below) as one CommonJS file, which bin/adops.js requires for a help page.
// - help-pages.cjs: every group's and command's help page, rendered now from
//   tsc's dist/cli/help-pages.js and the registry (dist/cli/commands.js), so `adops <group> <cmd>
//   --help` is a lookup in bin/adops.js (#16).
// - meta.json: which sources each output holds and which packages it leaves
//   external (esbuild's metafile, outputs only); test/e2e/fast-start.test.ts
//   and test/e2e/package.test.ts read it.
// - fast-read.cjs: the stored reads' own bundle (below).
import { build } from 'esbuild';
import { copyFileSync, existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = 'dist/bundle';
rmSync(`${root}${outdir}`, { recursive: true, force: true });

// tsc emits only what it compiles: the generated validators are plain JavaScript (src/contract/generated/*.js,
// `npm run gen`), so tsc's dist/ gets them beside the modules that import them.
for (const f of readdirSync(`${root}src/contract/generated`).filter((n) => n.endsWith('.js'))) {
  copyFileSync(`${root}src/contract/generated/${f}`, `${root}dist/contract/generated/${f}`);
}

// import('pkg') of a CommonJS package: Node gives the named exports
// (`const { x } = await import('some-cjs-package')`), esbuild's split chunk only
// `default`. Such packages stay external so Node loads them as it would
// unbundled; ESM packages (ora, @inquirer/prompts, conf, ...) are bundled.
const cjsDynamicImportsExternal = {
  name: 'cjs-dynamic-imports-external',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.kind !== 'dynamic-import' || args.pluginData === 'inner') return undefined;
      const r = await b.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: 'inner' });
      if (r.errors.length > 0 || r.external || !isCommonJs(r.path)) return undefined;
      return { path: args.path, external: true };
    });
  },
};

function isCommonJs(file) {
  if (file.endsWith('.cjs')) return true;
  if (file.endsWith('.mjs')) return false;
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).type !== 'module';
  }
  return true;
}

const common = {
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  target: 'node20',
  legalComments: 'none',
  metafile: true,
  logLevel: 'warning',
};

// The stored reads' own bundle (src/commands/observe/fast-read.ts): one CommonJS file, so a read loads
// one file instead of ~40 chunks, and bin/adops.js requires it without starting the ESM loader or
// main.js. It is a closed world (its own copy of every module it holds, never mixed with the chunks').
// What a stored read never reaches is a stub that throws if it is ever called, instead of being
// bundled along: runRead declines the argv and terminals that could reach it (a prompt, a
// spinner, a picker, confirming a delete, commander's own parse, writing the config, the other
// observe handlers, an editor, a proxy's tunnel, a --query, a table), and its runner is given its registry, so commands/index.ts (every definition and,
// through their `load`s, every handler) is not needed either.
const FAST_READ_STUBS = [
  { specifier: /^\.\/pickers\.js$/, importer: /src\/cli\/run\.ts$/, exports: ['pickFlagValues', 'argPicker', 'pick'] },
  {
    specifier: /^(ora|@inquirer\/prompts|commander|conf)$/,
    importer: /./,
    exports: ['default', 'password', 'confirm', 'input', 'search', 'Command', 'Option', 'InvalidArgumentError'],
  },
  { specifier: /^\.\/(drift|insights)\.js$/, importer: /src\/commands\/observe\/index\.ts$/, exports: ['run'] },
  { specifier: /^\.\/edit\.js$/, importer: /src\/commands\/_shared\/operation-command\.ts$/, exports: ['run', 'runEdit'] },
  // Tables and charts (cli-table3, asciichart, the Intl formatting of values.ts): runRead declines a format drawn for a terminal.
  { specifier: /^\.\.\/(table|chart)\.js$/, importer: /src\/cli\/output\/writers\/table\.ts$/, exports: ['renderTable', 'renderVertical', 'renderChart'] },
  // JMESPath (82 KB): runRead declines --query.
  { specifier: /^\.\.?\/query\.js$/, importer: /src\/cli\/output\/writers(\.ts|\/[a-z]+\.ts)$/, exports: ['applyQuery', 'queryColumns', 'checkQuery'] },
  // The contract's compiled request validators (~150 KB): a stored read sends no body, so it never checks one.
  // (Its query is checked: the parameter validators, ./generated/parameter-validators.js, ~20 KB, stay in.)
  { specifier: /^\.\/generated\/request-validators\.js$/, importer: /src\/contract\/request-check\.ts$/, exports: ['SHAPES'] },
  // The compiled answer validators (~320 KB): a stored read is a display, a tolerant reader; no flow runs in it.
  { specifier: /^\.\/generated\/response-validators\.js$/, importer: /src\/contract\/response-check\.ts$/, exports: [] },
  // https through a proxy's CONNECT tunnel (node:tls at load): runRead declines when a proxy variable is set.
  { specifier: /^\.\/proxy-tunnel\.js$/, importer: /src\/client\//, exports: ['tunnelAgent', 'closeTunnels', 'openTunnel'] },
];
const fastReadOnly = {
  name: 'fast-read-stubs',
  setup(b) {
    b.onResolve({ filter: /.*/ }, (args) => {
      const stub = FAST_READ_STUBS.find((s) => s.specifier.test(args.path) && s.importer.test(args.importer));
      return stub ? { path: args.path, namespace: 'fast-read-stub', pluginData: stub } : undefined;
    });
    b.onLoad({ filter: /.*/, namespace: 'fast-read-stub' }, (args) => ({
      contents: `const no = () => { throw new Error(${JSON.stringify(`adops: ${args.path} is not in the stored-read bundle (src/commands/observe/fast-read.ts should have declined this run)`)}); };\n${args.pluginData.exports.map((e) => (e === 'default' ? 'export default no;' : `export const ${e} = no;`)).join('\n')}\n`,
      loader: 'js',
    }));
    // What each operation accepts (73 KB of JSON, evaluated at load): the observe operations' entries only,
    // the only ones its definitions (commands/observe/index.ts) name; inputsOf throws for any other.
    b.onLoad({ filter: /src[\\/]contract[\\/]generated[\\/]operation-inputs\.json$/ }, async (args) => {
      const { OPERATION_TABLE } = await import(new URL('../dist/contract/operations.js', import.meta.url).href);
      const all = JSON.parse(readFileSync(args.path, 'utf8'));
      return { contents: JSON.stringify(Object.fromEntries(Object.entries(all).filter(([id]) => OPERATION_TABLE[id]?.api === 'observe'))), loader: 'json' };
    });
  },
};
// quick.cjs answers `--version` and the help pages: it never runs an import(). What one would load (the
// output formats' writers, which the --output choices' list names, src/cli/output/writers/formats.ts) is a
// stub that throws, not a copy of the writers in the file every help page loads.
const noDynamicImports = {
  name: 'quick-no-dynamic-imports',
  setup(b) {
    b.onResolve({ filter: /.*/ }, (args) => (args.kind === 'dynamic-import' ? { path: args.path, namespace: 'quick-stub' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'quick-stub' }, (args) => ({
      contents: `throw new Error(${JSON.stringify(`adops: ${args.path} is not in quick.cjs (it answers --version and help only)`)});\n`,
      loader: 'js',
    }));
  },
};
// The launcher's own files (route.cjs, quick.cjs) hold only what their exports reach: our modules are marked free of
// side effects there, so a module imported for one constant (the global options of cli/registry.ts, the proxy
// variables of client/proxy.ts) does not bring the rest of its file and its imports (the operation table, the redactor).
const launcherOnly = {
  name: 'launcher-tree-shaking',
  setup(b) {
    b.onResolve({ filter: /^\./ }, async (args) => {
      if (args.pluginData === 'inner') return undefined;
      const r = await b.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: 'inner' });
      return r.errors.length > 0 ? undefined : { path: r.path, sideEffects: false };
    });
  },
};
const [esm, route, cjs, fast] = await Promise.all([
  build({
    ...common,
    entryPoints: ['src/cli/main.ts'],
    outdir,
    // Flat, so every chunk sits at dist/cli's depth (version.ts reads ../../package.json).
    chunkNames: '[name]-[hash]',
    splitting: true,
    format: 'esm',
    external: ['better-sqlite3'],
    plugins: [cjsDynamicImportsExternal],
    // Bundled CommonJS (commander, ...) calls require() for node builtins.
    banner: { js: "import { createRequire as __adopsCreateRequire } from 'node:module'; const require = __adopsCreateRequire(import.meta.url);" },
  }),
  build({
    ...common,
    entryPoints: ['src/cli/route.ts'],
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
    plugins: [fastReadOnly, cjsDynamicImportsExternal],
    // version.ts finds package.json from its own URL: this file's, in CommonJS.
    define: { 'import.meta.url': '__adopsImportMetaUrl' },
    banner: { js: "const __adopsImportMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
  }),
]);

const outputs = {};
for (const [file, o] of Object.entries({ ...esm.metafile.outputs, ...route.metafile.outputs, ...cjs.metafile.outputs, ...fast.metafile.outputs })) {
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
writeFileSync(`${root}${outdir}/meta.json`, JSON.stringify({ outputs }, null, 1) + '\n');
// The sandbox's prebuilt demo world, beside the bundle (dist/bundle/demo-world.db).
await import('./build-sandbox-snapshot.mjs');
