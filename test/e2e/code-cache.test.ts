// The stored reads' bundle through the code cache the build made (bin/code-cache.cjs, #37): V8 takes the
// cache (the build and the launcher wrap the source alike), a file loaded through it is the module require()
// gives (in require.cache, same exports), and without a cache for the running Node it is plain require().
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, BIN, ensureBuilt, ROOT } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

const require = createRequire(import.meta.url);
const codeCache: unknown = require(join(ROOT, 'bin', 'code-cache.cjs'));

/** Calls the loader's export `name` with file. */
function call(name: string, file: string): unknown {
  const f: unknown = Reflect.get(Object(codeCache), name);
  if (typeof f !== 'function') throw new Error(`bin/code-cache.cjs exports no ${name}`);
  return Reflect.apply(f, undefined, [file]);
}
/** What V8 said of the cache (vm.Script's cachedDataRejected), or 'none' when there was none to give it. */
const verdict = (file: string): unknown => {
  const script = call('compileCached', file);
  return script === undefined ? 'none' : Reflect.get(Object(script), 'cachedDataRejected');
};
const FAST = join(ROOT, 'dist', 'bundle', 'fast-read.cjs');

describe('the code cache of fast-read.cjs', () => {
  beforeAll(() => ensureBuilt());

  it('the build wrote one for this Node, and V8 accepts it', () => {
    expect(existsSync(`${FAST}.${process.version}-${process.arch}.cache`)).toBe(true);
    expect(verdict(FAST)).toBe(false);
  });

  it("the one-command bundles' caches too (sync-run.cjs, apply-run.cjs, each made after a real run): V8 accepts them", () => {
    for (const f of ['sync-run.cjs', 'apply-run.cjs']) expect([f, verdict(join(ROOT, 'dist', 'bundle', f))]).toEqual([f, false]);
  });

  it('a file loaded through its cache is in require.cache with the exports its top level set', () => {
    const dir = tempDir('adops-code-cache-');
    const file = join(dir, 'probe.cjs');
    writeFileSync(file, "exports.where = __filename;\nexports.fs = typeof require('node:fs').readFileSync;\nmodule.exports.n = 42;\n");
    call('writeCodeCache', file);
    const loaded = call('requireCached', file);
    expect(loaded).toEqual({ where: file, fs: 'function', n: 42 });
    expect(verdict(file)).toBe(false);
    expect(require(file)).toBe(loaded); // require() finds the same module: it is in require.cache
  });

  it('without a cache for this Node it is require(), a missing file its usual error', () => {
    const dir = tempDir('adops-code-cache-');
    const file = join(dir, 'plain.cjs');
    writeFileSync(file, 'exports.plain = true;\n');
    expect(verdict(file)).toBe('none');
    expect(call('requireCached', file)).toEqual({ plain: true });
    expect(() => call('requireCached', join(dir, 'absent.cjs'))).toThrow(/Cannot find module/);
  });
});

// V8 holds a source with one non-ASCII character as UTF-16 (twice the bytes, decoded through a second buffer): the
// build writes what esbuild leaves non-ASCII (comments, regular expressions, the help pages' JSON) as escapes (#37).
const nonAscii = (file: string): number => [...readFileSync(file)].filter((b) => b > 0x7f).length;

describe('the CommonJS files a start requires', () => {
  beforeAll(() => ensureBuilt());

  it('are ASCII only', () => {
    for (const f of ['route.cjs', 'quick.cjs', 'help-pages.cjs', 'fast-read.cjs', 'sync-run.cjs', 'apply-run.cjs'])
      expect([f, nonAscii(join(ROOT, 'dist', 'bundle', f))]).toEqual([f, 0]);
  });

  it('mean what they meant: the escapes in a string, a regular expression and a comment', async () => {
    const plugins: unknown = await import(pathToFileURL(join(ROOT, 'scripts', 'bundle-plugins.mjs')).href);
    const asciiOnly: unknown = Reflect.get(Object(plugins), 'asciiOnly');
    if (typeof asciiOnly !== 'function') throw new Error('scripts/bundle-plugins.mjs exports no asciiOnly');
    const file = join(tempDir('adops-ascii-'), 'probe.cjs');
    const source = [
      '// a comment: ~25 µs',
      "exports.masked = /^acr_…/i.test('ACR_…wxyz') && !/^acr_…/i.test('acr_x');",
      "exports.text = 'a — b → c 😀';",
      "exports.emoji = /^[😀]$/u.test('😀');",
    ].join('\n');
    writeFileSync(file, source);
    const before: unknown = require(file);
    delete require.cache[file];
    Reflect.apply(asciiOnly, undefined, [file]);
    expect(nonAscii(file)).toBe(0);
    expect(require(file)).toEqual(before);
    expect(before).toEqual({ masked: true, text: 'a — b → c 😀', emoji: true });
  });
});

// main.js and its chunks (CommonJS, #37 session 8): the build makes their caches after a run of `config list`
// (scripts/code-cache-chunks.mjs), and bin/adops.js loads every chunk of dist/bundle through them (requireChunksCached).
describe("the code cache of main.js's chunks", () => {
  beforeAll(() => ensureBuilt());

  it('the whole CLI loads main.js and the chunks of `config list` with caches V8 accepts', () => {
    const dir = tempDir('adops-chunk-cache-');
    const log = join(dir, 'scripts.txt');
    // Every vm.Script given a cache, with V8's verdict (a line each: the file, a tab, true or false), written as the process exits.
    const recorder = join(dir, 'recorder.cjs');
    writeFileSync(
      recorder,
      `const vm = require('node:vm'); const fs = require('node:fs'); const seen = [];
const Script = vm.Script;
vm.Script = class extends Script { constructor(source, o) { super(source, o); if (o && o.cachedData) seen.push([o.filename, this.cachedDataRejected]); } };
process.on('exit', () => fs.writeFileSync(${JSON.stringify(log)}, seen.map(([f, rejected]) => f + '\\t' + rejected + '\\n').join('')));`,
    );
    const r = spawnSync(process.execPath, ['-r', recorder, BIN, 'config', 'list', '--json'], {
      encoding: 'utf8',
      env: baseEnv({ ADOPS_CONFIG_DIR: join(dir, 'cfg') }),
    });
    expect(r.status, r.stderr).toBe(0);
    const seen = readFileSync(log, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => line.split('\t'))
      .map(([f = '', rejected]) => [f.replace(/.*\//, ''), rejected]);
    expect(seen).toContainEqual(['main.js', 'false']);
    expect(seen.filter(([, rejected]) => rejected === 'false').length).toBeGreaterThan(10);
    expect(seen.filter(([, rejected]) => rejected !== 'false')).toEqual([]);
  });
});
