// Which files a spawned `node bin/adops.js` loaded, from documented hooks only: `node --require` of a preload that,
// for CommonJS files, either lists require.cache at exit or wraps Module._resolveFilename (every require as it
// happens). Each file is appended, as a file: URL (a built-in by its name), to the file named by ADOPS_TEST_LOADED
// in the child's environment, one a line.
//
// CommonJS is every file there is to see: bin/adops.js and every file of dist/bundle are CommonJS, and none of them
// can start the ESM loader (scripts/bundle-commonjs.mjs makes each import() of main.js's chunks a require() and fails
// the build on one it cannot; bundle-plugins.mjs's builtinImportsRequired does so for the .cjs bundles' built-ins).
// esmHookArgs() is the check of that: a module.register resolve hook, which sees every ES module (and costs each
// child a loader thread, ~85 ms of CPU: #37 session 9), for a test that spawns once per bundle with it.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const COMMONJS = {
  /** Every CommonJS file loaded, listed once as the process exits. */
  'require-cache': `process.on('exit', () => appendFileSync(process.env.ADOPS_TEST_LOADED, Object.keys(require.cache).filter((f) => f !== __filename).map((f) => pathToFileURL(f).href + '\\n').join('')));`,
  /** Every require as it resolves, built-ins by their names (a process that exits early still has them listed). */
  'resolve-filename': `const Module = require('node:module');
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (...args) {
  const file = resolveFilename.apply(this, args);
  appendFileSync(process.env.ADOPS_TEST_LOADED, (file.startsWith('/') ? pathToFileURL(file).href : file) + '\\n');
  return file;
};`,
};

/** Writes the preload into `dir`; the arguments to put before the script (`node ...args bin/adops.js`). */
export function writeLoadHooks(dir: string, commonJs: keyof typeof COMMONJS): string[] {
  const preload = join(dir, `preload-${commonJs}.cjs`);
  writeFileSync(preload, `const { appendFileSync } = require('node:fs');\nconst { pathToFileURL } = require('node:url');\n${COMMONJS[commonJs]}\n`);
  return ['--require', preload];
}

const RESOLVE_HOOK = `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  appendFileSync(process.env.ADOPS_TEST_LOADED, r.url + '\\n');
  return r;
}`;

/** Arguments that list every ES module the child resolves (module.register), to ADOPS_TEST_LOADED as above. */
export function esmHookArgs(dir: string): string[] {
  const hooks = join(dir, 'esm-hooks.mjs');
  const register = join(dir, 'esm-register.mjs');
  writeFileSync(hooks, RESOLVE_HOOK);
  writeFileSync(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
  return ['--import', pathToFileURL(register).href];
}
