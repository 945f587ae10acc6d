// Which files a spawned `node bin/adops.js` loaded, from documented hooks only: `node --import` of a register file
// that registers a resolve hook (module.register: every ES module's URL) and, for CommonJS files, either lists
// require.cache at exit or wraps Module._resolveFilename (every require as it happens). Each URL is appended to the
// file named by ADOPS_TEST_LOADED in the child's environment, one a line.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const RESOLVE_HOOK = `import { appendFileSync } from 'node:fs';
export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  appendFileSync(process.env.ADOPS_TEST_LOADED, r.url + '\\n');
  return r;
}`;

const COMMONJS = {
  /** Every CommonJS file loaded, listed once as the process exits. */
  'require-cache': `import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
process.on('exit', () => appendFileSync(process.env.ADOPS_TEST_LOADED, Object.keys(require.cache).map((f) => pathToFileURL(f).href + '\\n').join('')));`,
  /** Every require as it resolves, built-ins by their names (a process that exits early still has them listed). */
  'resolve-filename': `import Module from 'node:module';
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (...args) {
  const file = resolveFilename.apply(this, args);
  appendFileSync(process.env.ADOPS_TEST_LOADED, (file.startsWith('/') ? pathToFileURL(file).href : file) + '\\n');
  return file;
};`,
};

/** Writes the hooks into `dir`; the URL to pass to `node --import`. */
export function writeLoadHooks(dir: string, commonJs: keyof typeof COMMONJS): string {
  const hooks = join(dir, 'hooks.mjs');
  const register = join(dir, 'register.mjs');
  writeFileSync(hooks, RESOLVE_HOOK);
  writeFileSync(
    register,
    `import { register } from 'node:module';
import { appendFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
register(${JSON.stringify(pathToFileURL(hooks).href)});
${COMMONJS[commonJs]}`,
  );
  return pathToFileURL(register).href;
}
