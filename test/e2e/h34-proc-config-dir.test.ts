// A config dir under /proc (issue #34, section 3): there mkdir answers ENOENT
// under a parent that exists, and Node's recursive mkdir (Node 20, 22) makes
// the parent again and retries for ever, synchronously: a TAB spun at full CPU
// and no signal handler ran, so SIGTERM was not heard. The store makes its
// directories one level at a time (state/durable-write.ts ensureDir): a TAB
// ends at once and quietly, SIGTERM ends one that waits, and every command that
// keeps something there ends with the local-state error naming the directory.
// The built binary: a loop like that would hold a test run in process for ever.
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { baseEnv, BIN, DEMO, ensureBuilt, ROOT, runAdops, type RunResult } from '../helpers/cli.js';
import { SOCIAL_LINE_ITEM } from '../helpers/plans.js';
import { DEMO_WORLD, useTestSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp.js';
import { png } from '../unit/uploads/media-samples.js';

/** Where Node 20's mkdirSync(…, { recursive: true }) never returns. */
const PROC_DIR = '/proc/self/adops-h34';
const hasProc = existsSync('/proc/self');
/** What a run may take on a loaded machine; the old code never ended (the helpers' SIGKILL ended it). */
const BOUND_MS = 8_000;

const sb = useTestSandbox({ world: DEMO_WORLD });
/** A service that takes requests and never answers (a TAB that asks it waits). */
let silent: Server;
let silentUrl = '';
let silentRequests = 0;

beforeAll(async () => {
  ensureBuilt();
  silent = createServer(() => void silentRequests++);
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
  const address = silent.address();
  if (address === null || typeof address === 'string') throw new Error('not listening on a TCP port');
  silentUrl = `http://127.0.0.1:${address.port}`;
}, 120_000);
afterAll(async () => {
  silent.closeAllConnections();
  await new Promise<void>((r) => silent.close(() => r()));
});

const env = (extra: Record<string, string | undefined> = {}) => ({ ADOPS_CONFIG_DIR: PROC_DIR, ADOPS_API_KEY: DEMO.full, ADOPS_BASE_URL: sb.url, ...extra });
const run = (args: string[], extra: Record<string, string | undefined> = {}, stdin?: string): Promise<RunResult> =>
  runAdops(args, { env: env(extra), timeoutMs: BOUND_MS + 4_000, ...(stdin !== undefined ? { stdin } : {}) });

describe.skipIf(!hasProc)(`a TAB with ADOPS_CONFIG_DIR=${PROC_DIR}`, () => {
  it('ends within its bound, exit 0, and prints nothing but candidates (the cache cannot be kept: it asks the service itself)', async () => {
    const r = await run(['__complete', 'observe', 'campaigns', 'list', '--advertiser', ''], { ADOPS_COMPLETE_TIMEOUT_MS: '5000' });
    expect({ code: r.code, signal: r.signal, stderr: r.stderr }, `${r.ms} ms`).toEqual({ code: 0, signal: null, stderr: '' });
    expect(r.ms).toBeLessThan(BOUND_MS);
    expect(r.stdout.split('\n').filter(Boolean)).toContain('acc_acme_a_001');
  });

  it('a service that is not there: exit 0 at once, nothing on either stream', async () => {
    for (const words of [
      ['__complete', 'mutations', 'get', ''],
      ['__complete-describe', 'brands', 'get', ''],
    ]) {
      const r = await run(words, { ADOPS_BASE_URL: 'http://127.0.0.1:9' });
      expect({ code: r.code, signal: r.signal, stdout: r.stdout, stderr: r.stderr }, `${words.join(' ')}: ${r.ms} ms`).toEqual({
        code: 0,
        signal: null,
        stdout: '',
        stderr: '',
      });
      expect(r.ms).toBeLessThan(BOUND_MS);
    }
  });

  it('SIGTERM ends a TAB that waits for the service: promptly, quietly, 143', async () => {
    silentRequests = 0;
    const child = spawn(process.execPath, [BIN, '__complete', 'brands', 'get', ''], {
      cwd: ROOT,
      env: baseEnv(env({ ADOPS_BASE_URL: silentUrl, ADOPS_COMPLETE_TIMEOUT_MS: '60000' })),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c: Buffer) => (out += String(c)));
    child.stderr.on('data', (c: Buffer) => (out += String(c)));
    const closed = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((r) => child.on('close', (code, signal) => r({ code, signal })));
    const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    try {
      // Waiting once it asked the service (the old code never got that far: it gets the signal after 5 s anyway).
      for (let i = 0; i < 100 && silentRequests === 0; i++) await new Promise((r) => setTimeout(r, 50));
      const sent = Date.now();
      child.kill('SIGTERM');
      const ended = await closed;
      expect({ ...ended, out, prompt: Date.now() - sent < 3_000 }).toEqual({ code: 143, signal: null, out: '', prompt: true });
    } finally {
      clearTimeout(killer);
    }
  }, 30_000);
});

describe.skipIf(!hasProc)(`every command that keeps something in ADOPS_CONFIG_DIR=${PROC_DIR}`, () => {
  const refused = (r: RunResult, under: string) => {
    expect({ code: r.code, signal: r.signal }, `${r.ms} ms: ${r.stderr}`).toEqual({ code: 1, signal: null });
    expect(r.ms).toBeLessThan(BOUND_MS);
    // The directory named, and what could not be made there (ENOENT: /proc makes no directories).
    expect(r.stderr).toContain(`cannot write`);
    expect(r.stderr).toContain(`${under}`);
    expect(r.stderr).toMatch(/ENOENT: the file system will not make a directory there/);
    expect(r.stderr).not.toMatch(/bug in adops/);
  };

  it('config set, auth login: exit 1 naming the directory', async () => {
    refused(await run(['config', 'set', 'retries', '2']), PROC_DIR);
    refused(
      await run(['auth', 'login', '--with-key', '--no-verify', '--url', 'http://127.0.0.1:9'], { ADOPS_API_KEY: undefined }, 'acr_h34_proc_key_0001'),
      PROC_DIR,
    );
  });

  it('assets upload (the upload journal): exit 1 naming the directory, nothing reserved', async () => {
    const p = join(tempDir('adops-h34-proc-'), 'pic.png');
    writeFileSync(p, png(4, 4));
    const count = async () => (await sb.req('GET', '/assets', { key: DEMO.full, query: { limit: 500 } })).body.data.length;
    const before = await count();
    refused(await run(['assets', 'upload', p]), join(PROC_DIR, 'uploads'));
    expect(await count()).toBe(before);
  });

  it('plans apply (its marker): exit 1 naming the directory, no plan created', async () => {
    const slug = 'h34-proc-plan';
    const file = join(tempDir('adops-h34-proc-plan-'), 'plan.json');
    const plan = { slug, name: 'Proc', currency: 'USD', budget: 1000, startDate: '2026-10-01', endDate: '2026-10-31', lineItems: [SOCIAL_LINE_ITEM] };
    writeFileSync(file, JSON.stringify(plan));
    refused(await run(['plans', 'apply', file]), join(PROC_DIR, 'plan-apply'));
    expect((await sb.req('GET', `/context/campaign-plans/${slug}`, { key: DEMO.full })).status).toBe(404);
  });
});
