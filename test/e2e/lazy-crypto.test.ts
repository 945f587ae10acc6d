// The stored reads' bundle loads node:crypto (and node:os) only when a function of it is called (#37,
// scripts/bundle-plugins.mjs lazyCrypto): 16 internal modules a read never used. Checked
// by running the bundle's code with a require that records what it is asked for (the
// built dist/bundle/fast-read.cjs, and a small bundle built here with the same plugin).
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { homedir, hostname } from 'node:os';
import { join } from 'node:path';
import { compileFunction } from 'node:vm';
import { build } from 'esbuild';
import { beforeAll, describe, expect, it } from 'vitest';
import { lazyCrypto, lazyOs } from '../../scripts/bundle-plugins.mjs';
import { baseEnv, BIN, ensureBuilt, ROOT } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

interface Loaded {
  exports: Record<string, unknown>;
  asked: string[];
}

/** Runs CommonJS `code` as a module at `file` with a require that records each specifier, then requires it for real. */
function runRecording(code: string, file: string): Loaded {
  const real = createRequire(file);
  const asked: string[] = [];
  const record = (id: string): unknown => {
    asked.push(id);
    return real(id);
  };
  const module = { exports: {} };
  // The CommonJS wrapper's parameters, in Node's order: the code sees only what it is given.
  const wrapper = compileFunction(code, ['exports', 'require', 'module', '__filename', '__dirname'], { filename: file });
  wrapper(module.exports, record, module, file, join(file, '..'));
  return { exports: module.exports, asked };
}

/** Calls an export that must be a function, with args. */
function call(f: unknown, ...args: unknown[]): unknown {
  if (typeof f !== 'function') throw new Error(`not a function: ${String(f)}`);
  return Reflect.apply(f, undefined, args);
}

async function bundled(source: string): Promise<string> {
  const r = await build({
    stdin: { contents: source, resolveDir: ROOT, loader: 'ts' },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    write: false,
    logLevel: 'silent',
    plugins: [lazyCrypto, lazyOs],
  });
  return r.outputFiles[0]!.text;
}

describe('node:crypto on first call (lazyCrypto)', () => {
  beforeAll(() => ensureBuilt());

  it('the stored reads bundle loads without node:crypto', () => {
    const file = join(ROOT, 'dist', 'bundle', 'fast-read.cjs');
    const { exports, asked } = runRecording(readFileSync(file, 'utf8'), file);
    expect(typeof exports.runFast).toBe('function');
    // The check can fail: the bundle does ask for other built-in modules at load.
    expect(asked).toContain('node:fs');
    expect(asked.filter((id) => /^(node:)?(crypto|os)$/.test(id))).toEqual([]);
  });

  it('a function of node:crypto loads it on its first call and answers as node:crypto does', async () => {
    const code = await bundled(
      "import { randomUUID, createHash } from 'node:crypto';\nexport const id = () => randomUUID();\nexport const sha = (s: string) => createHash('sha256').update(s).digest('hex');\n",
    );
    const { exports, asked } = runRecording(code, join(ROOT, 'lazy-crypto-probe.cjs'));
    expect(asked).not.toContain('node:crypto');
    expect(call(exports.id)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(asked).toEqual(['node:crypto']);
    expect(call(exports.sha, 'abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(asked).toEqual(['node:crypto']); // once
  });

  it('a name the plugin does not list fails the build instead of becoming undefined', async () => {
    await expect(bundled("import { createCipheriv } from 'node:crypto';\nexport const f = () => createCipheriv('aes-128-gcm', 'k', 'iv');\n")).rejects.toThrow(
      /createCipheriv/,
    );
  });
});

describe('node:os on first call (lazyOs, #37)', () => {
  it('homedir and hostname load node:os on their first call and answer as node:os does', async () => {
    const code = await bundled("import { homedir, hostname } from 'node:os';\nexport const home = () => homedir();\nexport const host = () => hostname();\n");
    const { exports, asked } = runRecording(code, join(ROOT, 'lazy-os-probe.cjs'));
    expect(asked).not.toContain('node:os');
    expect(call(exports.home)).toBe(homedir());
    expect(call(exports.host)).toBe(hostname());
    expect(asked).toEqual(['node:os']); // once
  });

  it('a name the plugin does not list fails the build', async () => {
    await expect(bundled("import { cpus } from 'node:os';\nexport const f = () => cpus();\n")).rejects.toThrow(/cpus/);
  });
});

// main.js's chunks too (#37 session 8): `config list` (the whole CLI's path, every command's set-up) loaded node:crypto
// for the config writer's temporary names and node:os for the lock's holder, neither of which it calls (~9 M
// instructions of ~215 M). Checked on the built CLI: the internal modules a run loaded (process.moduleLoadList).
describe("node:crypto and node:os on first call in main.js's chunks", () => {
  beforeAll(() => ensureBuilt());

  /** The built-in modules `adops ...args` loaded, as Node lists them at exit. */
  function builtinsOf(args: string[]): string[] {
    const dir = tempDir('adops-lazy-main-');
    const log = join(dir, 'modules.txt');
    const recorder = join(dir, 'recorder.cjs');
    writeFileSync(recorder, `process.on('exit', () => require('node:fs').writeFileSync(${JSON.stringify(log)}, process.moduleLoadList.join('\\n')));`);
    const r = spawnSync(process.execPath, ['-r', recorder, BIN, ...args], { encoding: 'utf8', env: baseEnv({ ADOPS_CONFIG_DIR: join(dir, 'cfg') }) });
    expect(r.status, r.stderr).toBe(0);
    return readFileSync(log, 'utf8').split('\n');
  }

  it('config list loads neither', () => {
    const loaded = builtinsOf(['config', 'list', '--json']);
    expect(loaded).toContain('NativeModule tty'); // the list is read (the check can see a built-in)
    expect(loaded.filter((m) => m === 'NativeModule crypto' || m === 'NativeModule os')).toEqual([]);
  });

  it('config set, which writes the config under a temporary name, loads node:crypto (the check can fail)', () => {
    expect(builtinsOf(['config', 'set', 'output', 'json'])).toContain('NativeModule crypto');
  });
});
