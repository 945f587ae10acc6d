// `adops sandbox serve` on a store that holds its world says "listening on" before it loads its routes (#16:
// src/sandbox/index.ts listens first, then imports the runtime; a request that comes meanwhile waits). main.js's
// chunks are CommonJS (scripts/bundle-commonjs.mjs): an import() is a require() on the event loop's next turn. Run
// in the same turn (esbuild's Promise.resolve().then()), the runtime's chunk (~150 ms of zod, Hono and the routes)
// was required before the line went out: ready 492 -> 653 ms. The child records, in order, every file it requires
// and every line it writes on stdout (a preloaded file: Module._resolveFilename and process.stdout.write wrapped).
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { baseEnv, BIN, bundleOutputs, ensureBuilt, fileHolding } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

const RECORDER = `'use strict';
const { appendFileSync } = require('node:fs');
const Module = require('node:module');
const log = process.env.ADOPS_TEST_LOADED;
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (...args) {
  const file = resolveFilename.apply(this, args);
  appendFileSync(log, 'require ' + file + '\\n');
  return file;
};
const write = process.stdout.write;
process.stdout.write = function (chunk, ...rest) {
  appendFileSync(log, 'stdout ' + String(chunk));
  return write.call(this, chunk, ...rest);
};
`;

let runtimeChunk: string;
beforeAll(() => {
  ensureBuilt();
  runtimeChunk = fileHolding(bundleOutputs(), 'src/sandbox/runtime.ts');
});

it('sandbox serve says "listening on" before it requires the chunk of its routes, then requires it', async () => {
  const dir = tempDir('adops-listens-first-');
  const recorder = join(dir, 'recorder.cjs');
  const log = join(dir, 'log.txt');
  writeFileSync(recorder, RECORDER);
  writeFileSync(log, '');
  const child = spawn(process.execPath, ['-r', recorder, BIN, 'sandbox', 'serve', '--port', '0', '--data', ':memory:', '--ingest-every', '0'], {
    env: baseEnv({ ADOPS_TEST_LOADED: log, ADOPS_CONFIG_DIR: join(dir, 'cfg') }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  try {
    // Until it has listened and loaded the routes (a request would wait for them), at most 30 s.
    const lines = await new Promise<string[]>((resolve, reject) => {
      const deadline = Date.now() + 30_000;
      const poll = setInterval(() => {
        const now = readFileSync(log, 'utf8').split('\n');
        if (now.some((l) => l.startsWith('stdout listening on')) && now.some((l) => l.endsWith(`/dist/bundle/${runtimeChunk}`))) {
          clearInterval(poll);
          resolve(now);
        } else if (Date.now() > deadline || child.exitCode !== null) {
          clearInterval(poll);
          reject(new Error(`no "listening on" and routes within 30 s (exit ${child.exitCode}):\n${now.join('\n')}`));
        }
      }, 50);
    });
    const listening = lines.findIndex((l) => l.startsWith('stdout listening on'));
    const routes = lines.findIndex((l) => l.endsWith(`/dist/bundle/${runtimeChunk}`));
    expect(routes, lines.slice(Math.min(listening, routes)).join('\n')).toBeGreaterThan(listening);
  } finally {
    // Ctrl-C: it stops as a user's does, and removes its in-memory world's files folder.
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGINT');
      const hung = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(hung);
    }
  }
}, 40_000);
