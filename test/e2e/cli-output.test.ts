// Output as a user sees it: table on a terminal, JSON piped, ndjson/csv/--fields,
// pages streamed as they arrive, a reader leaving early, Ctrl-C mid-list, and
// the observe reads (stored and live).
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { baseEnv, BIN, DEMO, ROOT, runAdopsTty, tempConfigDir } from '../helpers/cli.js';
import { runAdopsInProcess } from '../helpers/run-in-process.js';
import { spawnAsync } from '../helpers/spawn-async.js';
import { cfg, envFor, run, stub, useLoggedInSandbox } from './cli-fixture.js';

useLoggedInSandbox();

/**
 * A run whose streams say they are a 200-column terminal, in this process (helpers/run-in-process.ts; the format and
 * colour are decided from that and the env, format.ts): what a real pty's detection adds is terminal.test.ts's and
 * the other runAdopsTty files'. A command that turns a spinner (a read) still runs on a pty: ora moves the cursor.
 */
const onTerminal = (args: string[], extra: Record<string, string> = {}) => runAdopsInProcess(args, { env: envFor(extra), tty: { columns: 200 } });

describe('a reader that leaves early', () => {
  it('`adops … | head -c 1` stops quietly with exit 0, no EPIPE stack', async () => {
    // Every page as ndjson (hundreds of rows) into a reader that takes one byte and leaves. Not spawnSync: the
    // sandbox it reads from answers from this process.
    const r = await spawnAsync(
      'bash',
      ['--norc', '--noprofile', '-c', `set -o pipefail; "${process.execPath}" "${BIN}" observe ad-groups --all --output ndjson | head -c 1 >/dev/null`],
      {
        env: baseEnv({ ADOPS_CONFIG_DIR: cfg }),
        timeout: 20_000,
      },
    );
    expect(r.stderr).not.toMatch(/EPIPE|Unhandled|at .*\.js/);
    expect(r.status, r.stderr).toBe(0);
  });
});

describe('output', () => {
  it('is a table on a terminal (no colour under NO_COLOR) and JSON when piped', async () => {
    const tty = await onTerminal(['sandbox', 'keys'], { NO_COLOR: '1' });
    expect(tty.stdout).toMatch(/┌.*┐/);
    expect(tty.stdout).not.toMatch(/\u001b\[3\dm/);
    const piped = await run(['sandbox', 'keys']);
    expect(JSON.parse(piped.stdout)[0]).toMatchObject({ key: DEMO.full, organization: 'org_acme' });
  });

  it('ndjson, csv and --fields select and order', async () => {
    const nd = await run(['sandbox', 'keys', '--output', 'ndjson', '--fields', 'label,organization']);
    const lines = nd.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(Object.keys(lines[0])).toEqual(['label', 'organization']);
    const csv = await run(['sandbox', 'keys', '--output', 'csv', '--fields', 'organization,label']);
    expect(csv.stdout.split('\n')[0]).toBe('organization,label');
    const bad = await run(['sandbox', 'keys', '--fields', 'nope']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/known fields: key, organization, label, description/);
  });

  it('api --paginate streams every page as one JSON document, and a short run prints the next cursor', async () => {
    for (let i = 0; i < 3; i++) await run(['api', 'POST', '/assets/uploads', '-f', `filename=p${i}.png`]);
    const all = await run(['api', 'GET', '/assets', '-f', 'limit=1', '--paginate']);
    expect(all.code, all.stderr).toBe(0);
    expect(JSON.parse(all.stdout).length).toBeGreaterThanOrEqual(3);
    const one = await run(['assets', 'list', '--limit', '1']);
    expect(JSON.parse(one.stdout)).toHaveLength(1);
    const cursor = /next cursor: (\S+)/.exec(one.stderr)?.[1];
    expect(cursor).toBeTruthy();
    const resumed = await run(['assets', 'list', '--limit', '1', '--cursor', cursor!]);
    expect(JSON.parse(resumed.stdout)[0].id).not.toBe(JSON.parse(one.stdout)[0].id);
    const capped = await run(['assets', 'list', '--all', '--limit', '1', '--max', '2', '--output', 'ndjson']);
    expect(capped.stdout.trim().split('\n')).toHaveLength(2);
    expect(capped.stderr).toMatch(/next cursor: /);
  });
});

describe('streaming', () => {
  it('--paginate writes each page as it arrives: rows of page 1 are out before page 2 is served', async () => {
    const child = spawn(process.execPath, [BIN, 'api', 'GET', '/paged', '--paginate', '--output', 'json'], {
      cwd: ROOT,
      env: baseEnv({ ADOPS_CONFIG_DIR: tempConfigDir(), ADOPS_BASE_URL: stub.url, ADOPS_API_KEY: DEMO.full }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (c) => (out += c));
    const exited = new Promise<number | null>((r) => child.on('close', r));
    for (let i = 0; i < 200 && !out.includes('"id":"49"'); i++) await new Promise((r) => setTimeout(r, 25));
    expect(out.startsWith('[')).toBe(true);
    expect(out).toContain('"id":"49"');
    expect(out).not.toContain('"id":"50"');
    stub.releasePage2();
    expect(await exited).toBe(0);
    const all = JSON.parse(out);
    expect(all).toHaveLength(100);
    expect(all[99]).toEqual({ id: '99', name: 'row 99', extra: { n: 99 } });
  });
});

describe('interrupted list', () => {
  it('Ctrl-C after a page: exit 130, the JSON document is closed, the cursor to resume is on stderr', async () => {
    const child = spawn(process.execPath, [BIN, 'api', 'GET', '/stuck', '--paginate'], {
      cwd: ROOT,
      env: baseEnv({ ADOPS_CONFIG_DIR: tempConfigDir(), ADOPS_BASE_URL: stub.url, ADOPS_API_KEY: DEMO.full }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    const exited = new Promise<number | null>((r) => child.on('close', r));
    for (let i = 0; i < 200 && !stub.requests.some((q) => q.url.includes('cursor=resume-here')); i++) await new Promise((r) => setTimeout(r, 25));
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(JSON.parse(out)).toHaveLength(50);
    expect(err).toMatch(/interrupted[\s\S]*next cursor: resume-here/);
  });
});

describe('interrupted list, each format and signal', () => {
  const interrupt = async (format: string, signal: NodeJS.Signals) => {
    const before = stub.requests.filter((q) => q.url.includes('cursor=resume-here')).length;
    const child = spawn(process.execPath, [BIN, 'api', 'GET', '/stuck', '--paginate', '--output', format], {
      cwd: ROOT,
      env: baseEnv({ ADOPS_CONFIG_DIR: tempConfigDir(), ADOPS_BASE_URL: stub.url, ADOPS_API_KEY: DEMO.full }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    const exited = new Promise<number | null>((r) => child.on('close', r));
    for (let i = 0; i < 400 && stub.requests.filter((q) => q.url.includes('cursor=resume-here')).length === before; i++)
      await new Promise((r) => setTimeout(r, 25));
    child.kill(signal);
    return { code: await exited, out, err };
  };

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`${signal} after page 1: exit ${signal === 'SIGINT' ? 130 : 143}, valid partial json, ndjson and csv, the cursor to resume on stderr`, async () => {
      const expected = signal === 'SIGINT' ? 130 : 143;
      const json = await interrupt('json', signal);
      expect(json.code).toBe(expected);
      expect(JSON.parse(json.out)).toHaveLength(50);
      const nd = await interrupt('ndjson', signal);
      expect(nd.code).toBe(expected);
      const lines = nd.out.trim().split('\n');
      expect(lines).toHaveLength(50);
      for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
      const csv = await interrupt('csv', signal);
      expect(csv.code).toBe(expected);
      expect(csv.out.trim().split('\n')).toHaveLength(51); // header + 50 rows
      // A person reads "next cursor: …"; with --output json|ndjson the error object carries nextCursor.
      for (const r of [json, nd]) expect(JSON.parse(r.err.trim().split('\n').at(-1)!).error.nextCursor).toBe('resume-here');
      expect(csv.err).toMatch(/next cursor: resume-here/);
    });
  }
});

describe('observe', () => {
  it('stored read: json by default when piped, unknown fields kept, table with resource columns on a terminal', async () => {
    const r = await run(['observe', 'campaigns', '--limit', '3']);
    expect(r.code, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout);
    expect(rows).toHaveLength(3);
    expect(Object.keys(rows[0])).toEqual(expect.arrayContaining(['advertiserId', 'id', 'budgetLevel', 'objective']));
    expect(r.stderr).toMatch(/next cursor: /);
    // On a pty (script(1)): a read on a terminal turns a spinner on stderr, which the in-process streams cannot draw.
    const tty = await runAdopsTty(['observe', 'campaigns', '--limit', '2'], { env: envFor({ NO_COLOR: '1' }) });
    expect(tty.code).toBe(0);
    const coloured = await runAdopsTty(['observe', 'campaigns', '--limit', '2'], { env: envFor() });
    expect(coloured.stdout).toMatch(/\u001b\[36m ?id/);
    expect(tty.stdout).toMatch(/│ id +│ name +│ provider +│ status +│ advertiserId/);
  });

  it('--all follows every cursor: json stays one document, ndjson one row per line, same rows', async () => {
    const json = await run(['observe', 'ad-groups', '--all', '--limit', '200']);
    expect(json.code, json.stderr).toBe(0);
    const rows = JSON.parse(json.stdout);
    expect(rows.length).toBeGreaterThan(200);
    expect(json.stderr).not.toMatch(/next cursor/);
    const nd = await run(['observe', 'ad-groups', '--all', '--limit', '200', '--output', 'ndjson']);
    expect(
      nd.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).id),
    ).toEqual(rows.map((x: { id: string }) => x.id));
  });

  it('filters map to the query; a live read goes to the advertiser path', async () => {
    const paused = await run(['observe', 'campaigns', '--status', 'PAUSED', '--provider', 'provider_a', '--limit', '20']);
    const rows = JSON.parse(paused.stdout);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((x: { status: string; provider: string }) => x.status === 'PAUSED' && x.provider === 'provider_a')).toBe(true);
    const live = await run(['observe', 'campaigns', '--live', 'acc_acme_a_001', '--limit', '2', '--debug']);
    expect(live.code, live.stderr).toBe(0);
    expect(live.stderr).toContain('/observe/acc_acme_a_001/campaigns?limit=2');
    expect(JSON.parse(live.stdout)[0]).toMatchObject({ advertiserId: 'acc_acme_a_001', createdAt: null });
  });

  it('refuses stored-only filters on a live read before sending (2); 501 suggests the stored copy (7)', async () => {
    const both = await run(['observe', 'campaigns', '--live', 'acc_acme_a_001', '--provider', 'provider_a']);
    expect(both.code).toBe(2);
    const unsupported = await run(['observe', 'campaigns', '--live', 'acc_acme_a_001', '--status', 'ACTIVE']);
    expect(unsupported.code).toBe(7);
    expect(unsupported.stderr).toMatch(/live_read_unsupported \(501\)[\s\S]*hint: Read the stored copy/);
  });
});
