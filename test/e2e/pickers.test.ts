// Pickers for people: on a terminal (a pty, script(1)) a missing advertiser or
// brand is chosen from a searchable list of the organization's own ids; off a
// terminal, or with --no-input, the usage error stays exactly as it was.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, DEMO, ensureBuilt, ROOT, baseEnv, tempConfigDir } from '../helpers/cli.js';
import { startDemoSandbox, type DemoSandbox } from '../helpers/demo-sandbox.js';
import { runAdopsInProcess } from '../helpers/run-in-process.js';

let sandbox: DemoSandbox;
const cfg = tempConfigDir();
const env = () => ({ ADOPS_CONFIG_DIR: cfg, ADOPS_BASE_URL: sandbox.url, ADOPS_API_KEY: DEMO.full });
const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Under a pty: once `waitFor` shows, type each step (text, then a pause so the list can narrow). */
function onTerminal(args: string[], waitFor: string, steps: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const cmd = 'stty cols 200 rows 50; ' + [process.execPath, BIN, ...args].map(q).join(' ');
    const child = spawn('script', ['-qec', cmd, '/dev/null'], { cwd: ROOT, env: baseEnv({ TERM: 'xterm', ...env() }), stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let started = false;
    const type = async () => {
      for (const s of steps) {
        await new Promise((r) => setTimeout(r, 600));
        child.stdin.write(s);
      }
    };
    child.stdout.on('data', (c) => {
      out += c;
      if (!started && out.includes(waitFor)) {
        started = true;
        void type();
      }
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

beforeAll(async () => {
  ensureBuilt();
  sandbox = await startDemoSandbox();
  for (const slug of ['alpine-gear', 'pick-me']) {
    const r = await runAdopsInProcess(['brands', 'create', '--slug', slug, '--name', slug], { env: env() });
    expect(r.code, r.stderr).toBe(0);
  }
}, 60_000);
afterAll(async () => {
  await sandbox?.stop();
});

describe('pickers', () => {
  it('observe campaigns --live on a terminal: pick an advertiser from the list, narrowed by typing', async () => {
    const r = await onTerminal(['observe', 'campaigns', '--live', '--limit', '2', '-o', 'json'], 'advertiser (--live)', ['c_001', '\r']);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toContain('acc_acme_b_001'); // the list offered the others too
    expect(r.out).toMatch(/"advertiserId":"acc_acme_c_001"/);
    expect(r.out).not.toMatch(/"advertiserId":"acc_acme_(a|b)_/);
  });

  it('brands get on a terminal: pick a brand', async () => {
    const r = await onTerminal(['brands', 'get', '-o', 'json'], 'slug:', ['pick', '\r']);
    expect(r.code, r.out).toBe(0);
    expect(r.out).toContain('alpine-gear');
    expect(r.out).toMatch(/"slug": "pick-me"/);
  });

  it('off a terminal, or with --no-input on one, the usage error is exactly as before', async () => {
    const live = await runAdopsInProcess(['observe', 'campaigns', '--live'], { env: env() });
    expect([live.code, live.stdout, live.stderr]).toEqual([
      2,
      '',
      "error: option '--live <advertiserId>' argument missing\nhint: see `adops --help` or `adops <command> --help`\n",
    ]);
    const brand = await runAdopsInProcess(['brands', 'get'], { env: env() });
    expect([brand.code, brand.stdout, brand.stderr]).toEqual([2, '', 'error: missing argument <slug>\nhint: usage: adops brands get <slug>\n']);
    const tty = await onTerminal(['brands', 'get', '--no-input'], 'missing argument', []);
    expect(tty.code).toBe(2);
    expect(tty.out).toContain('error: missing argument <slug>');
    expect(tty.out).not.toContain('alpine-gear');
    const ttyLive = await onTerminal(['observe', 'campaigns', '--live', '--no-input'], 'argument missing', []);
    expect(ttyLive.code).toBe(2);
    expect(ttyLive.out).toContain("error: option '--live <advertiserId>' argument missing");
  });
});
