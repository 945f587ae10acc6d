// esbuild plugins shared by the npm install's bundles (scripts/build.mjs) and the
// single executable's (scripts/build-sea.mjs): both build the stored reads' own
// bundle and the launcher's small files the same way, so both take them from here.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

// import('pkg') of a CommonJS package: Node gives the named exports
// (`const { x } = await import('some-cjs-package')`), esbuild's split chunk only
// `default`. Such packages stay external so Node loads them as it would
// unbundled; ESM packages (ora, @inquirer/prompts, conf, ...) are bundled.
export const cjsDynamicImportsExternal = {
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
/**
 * A one-command bundle's stubs put in place (esbuild build `b`): each import `stubs` names resolves to a module whose
 * every export throws, naming the bundle and the file that should have declined the run.
 */
function stubImports(b, namespace, stubs, bundle, decliner) {
  b.onResolve({ filter: /.*/ }, (args) => {
    const stub = stubs.find((s) => s.specifier.test(args.path) && s.importer.test(args.importer));
    return stub ? { path: args.path, namespace, pluginData: stub } : undefined;
  });
  b.onLoad({ filter: /.*/, namespace }, (args) => ({
    contents: `const no = () => { throw new Error(${JSON.stringify(`adops: ${args.path} is not in the ${bundle} bundle (${decliner} should have declined this run)`)}); };\n${args.pluginData.exports.map((e) => (e === 'default' ? 'export default no;' : `export const ${e} = no;`)).join('\n')}\n`,
    loader: 'js',
  }));
}
export const fastReadOnly = {
  name: 'fast-read-stubs',
  setup(b) {
    stubImports(b, 'fast-read-stub', FAST_READ_STUBS, 'stored-read', 'src/commands/observe/fast-read.ts');
    // What each operation accepts (73 KB of JSON, evaluated at load): the observe operations' entries only,
    // the only ones its definitions (commands/observe/index.ts) name; inputsOf throws for any other.
    b.onLoad({ filter: /src[\\/]contract[\\/]generated[\\/]operation-inputs\.json$/ }, async (args) => {
      const { OPERATION_TABLE } = await import(new URL('../dist/contract/operations.js', import.meta.url).href);
      const all = JSON.parse(readFileSync(args.path, 'utf8'));
      return { contents: JSON.stringify(Object.fromEntries(Object.entries(all).filter(([id]) => OPERATION_TABLE[id]?.api === 'observe'))), loader: 'json' };
    });
    // The operation table likewise (64 entries, ~30 KB of object literals built at load): the observe entries only,
    // as tsc's dist/ has them (plain data: JSON gives them back equal); operation() throws for any other id.
    b.onLoad({ filter: /src[\\/]contract[\\/]generated[\\/]operation-table\.ts$/ }, async () => {
      const { OPERATION_TABLE } = await import(new URL('../dist/contract/generated/operation-table.js', import.meta.url).href);
      const observe = Object.fromEntries(Object.entries(OPERATION_TABLE).filter(([, op]) => op.api === 'observe'));
      return { contents: `export const OPERATION_TABLE = ${JSON.stringify(observe)};\n`, loader: 'js' };
    });
  },
};
// `assets sync`'s own bundle (src/commands/assets/sync-run.ts, #37): one CommonJS file as fast-read.cjs is, for the
// same reason (a re-run's start-up was the ESM loader's ~60 chunks). Its flow checks what it sends and every answer, so
// the contract's validators, the operation table and the inputs stay whole; stubs are only what sync-run.ts declines
// (a terminal's prompt, picker or spinner, commander's own parse, a table, a --query, a proxy's tunnel).
const SYNC_RUN_STUBS = FAST_READ_STUBS.filter((s) => !/validators|drift|edit/.test(String(s.specifier)));
export const syncRunOnly = {
  name: 'sync-run-stubs',
  setup(b) {
    stubImports(b, 'sync-run-stub', SYNC_RUN_STUBS, 'sync', 'src/commands/assets/sync-run.ts');
  },
};
// `mutations apply`'s own bundle (src/commands/mutations/apply-run.ts, #37 session 6), built as sync-run.cjs is: apply
// checks every row and every answer, so the validators, the operation table and the inputs stay whole. Stubs: sync's,
// and the live read of --preview, --undo-file and --skip-unchanged (flows/mutation-preview.ts and the contract's zod
// schemas under it), which apply-run.ts declines.
const APPLY_RUN_STUBS = [
  ...SYNC_RUN_STUBS,
  { specifier: /^\.\.\/\.\.\/flows\/mutation-preview\.js$/, importer: /src\/commands\/mutations\/apply\.ts$/, exports: ['previewRows'] },
];
export const applyRunOnly = {
  name: 'apply-run-stubs',
  setup(b) {
    stubImports(b, 'apply-run-stub', APPLY_RUN_STUBS, 'apply', 'src/commands/mutations/apply-run.ts');
  },
};
// quick.cjs answers `--version` and the help pages: it never runs an import(). What one would load (the
// output formats' writers, which the --output choices' list names, src/cli/output/writers/formats.ts) is a
// stub that throws, not a copy of the writers in the file every help page loads.
export const noDynamicImports = {
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
export const launcherOnly = {
  name: 'launcher-tree-shaking',
  setup(b) {
    b.onResolve({ filter: /^\./ }, async (args) => {
      if (args.pluginData === 'inner') return undefined;
      const r = await b.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: 'inner' });
      return r.errors.length > 0 ? undefined : { path: r.path, sideEffects: false };
    });
  },
};

// node:crypto costs a stored read 16 internal modules at load (~5 ms of CPU on this machine's Node 20 and 24) for
// functions it never calls there: the config writer's temporary names (state/durable-write.ts) and the lock's tokens
// (state/lock.ts). In the stored reads' bundles each of its named function imports is a function that loads
// node:crypto on its first call. A name not listed fails the build (esbuild: no matching export), so a new use is seen.
// A static import of our own sources (a dependency's, e.g. @hono/node-server's default import in main.js's chunks, is
// left as it is: loaded where that dependency is, which a stored read never reaches).
const ours = (args) => args.kind === 'import-statement' && !/[\\/]node_modules[\\/]/.test(args.importer);
const LAZY_CRYPTO = ['randomUUID', 'randomBytes', 'createHash', 'hash', 'createHmac', 'timingSafeEqual'];
export const lazyCrypto = {
  name: 'lazy-crypto',
  setup(b) {
    b.onResolve({ filter: /^(node:)?crypto$/ }, (args) => (ours(args) ? { path: 'node:crypto', namespace: 'lazy-crypto' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'lazy-crypto' }, () => ({
      contents: `let crypto;\nconst load = () => (crypto ??= require('node:crypto'));\n${LAZY_CRYPTO.map((n) => `export const ${n} = (...args) => load().${n}(...args);`).join('\n')}\n`,
      loader: 'js',
    }));
  },
};

// node:os is the same case, smaller (1 internal module and its binding, which bare node's start does not load): the
// config's directory asks homedir() only without HOME, the lock's holder hostname() only when it writes or judges a
// lock, which a stored read never does (#37). Same rule: a name not listed fails the build.
const LAZY_OS = ['homedir', 'hostname', 'tmpdir'];
export const lazyOs = {
  name: 'lazy-os',
  setup(b) {
    b.onResolve({ filter: /^(node:)?os$/ }, (args) => (ours(args) ? { path: 'node:os', namespace: 'lazy-os' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'lazy-os' }, () => ({
      contents: `let os;\nconst load = () => (os ??= require('node:os'));\n${LAZY_OS.map((n) => `export const ${n} = (...args) => load().${n}(...args);`).join('\n')}\n`,
      loader: 'js',
    }));
  },
};

// import('node:https') (and the other built-ins a bundle imports on demand) as a require() in a promise: a bundle
// that bin/code-cache.cjs runs through vm.Script with V8's code cache has no import() of its own on Node 20 (#37).
export const builtinImportsRequired = {
  name: 'builtin-imports-required',
  setup(b) {
    b.onResolve({ filter: /^node:/ }, (args) => (args.kind === 'dynamic-import' ? { path: args.path, namespace: 'builtin-require' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'builtin-require' }, (args) => ({ contents: `module.exports = require(${JSON.stringify(args.path)});`, loader: 'js' }));
  },
};

// What esbuild leaves non-ASCII (comments, regular expression literals; the help pages' JSON strings) written as \u
// escapes, so the file is ASCII only: V8 then holds its source as one byte a character. One `…` in a 350 KB bundle
// made the whole source UTF-16 (decoded through a second buffer, then copied): ~280 more page faults for a stored
// read of the executable (#37). An escape means the same character in each of those places; a non-ASCII character
// right after a backslash (where `\u` would read differently) fails the build instead.
export function asciiOnly(file) {
  const source = readFileSync(file, 'utf8');
  if (/\\[^\x00-\x7f]/.test(source)) throw new Error(`${file}: a non-ASCII character after a backslash; asciiOnly cannot escape it`);
  writeFileSync(
    file,
    source.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
  );
}
