// The write-ahead rule, watched at the system calls (#37): with records grouped
// under one fsync, a request may leave only after the fsync that covers its
// record has RETURNED. A kill -9 between a log's append and its fsync then loses
// no key that was sent: nothing was sent on it yet. strace follows the built
// binary (threads included: the fsyncs run on libuv's pool) and every request
// on the wire is checked against the log's text as of the last finished fsync:
// `mutations apply` (each POST's Idempotency-Key, in the journal beside the
// file) and `assets sync` (each PUT's upload URL, in the run's upload log).
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, DEMO, ensureBuilt, tempConfigDir } from '../helpers/cli.js';
import { campaignsOf } from '../helpers/drop-proxy.js';
import { DEMO_WORLD, useTestSandbox } from '../helpers/sandbox.js';
import { tempDir } from '../helpers/temp.js';
import { png } from '../unit/uploads/media-samples.js';

const ACC = 'acc_acme_a_001';
const sb = useTestSandbox({ world: DEMO_WORLD });
const hasStrace = spawnSync('strace', ['-V']).status === 0;

interface Checked {
  /** Requests seen on the wire (their key or URL token). */
  sent: string[];
  /** Those whose token was not in the log's fsynced text when they left. */
  early: string[];
  fsyncs: number;
}

/**
 * Replays an strace of the run: the log's writes, its fsyncs (entry: how much was written by
 * then; return: that much is durable), and each request written to a socket, whose token must be
 * in the durable text at that moment.
 */
function check(trace: string, isLog: (path: string) => boolean, tokenOf: (request: string) => string | undefined): Checked {
  const logFds = new Set<string>();
  let written = '';
  let durable = 0;
  const fsyncAt = new Map<string, number>(); // pid → written length at its fsync's entry
  const out: Checked = { sent: [], early: [], fsyncs: 0 };
  for (const line of trace.split('\n')) {
    const m = /^(\d+)\s+(.*)$/.exec(line);
    if (!m?.[1] || m[2] === undefined) continue;
    const [pid, call] = [m[1], m[2]];
    const opened = /^openat\(AT_FDCWD, "([^"]+)", [^)]*\) = (\d+)/.exec(call);
    if (opened && isLog(opened[1]!)) logFds.add(opened[2]!);
    const fsync = /^f(?:data)?sync\((\d+)/.exec(call);
    if (fsync && logFds.has(fsync[1]!)) {
      fsyncAt.set(pid, written.length);
      out.fsyncs++;
    }
    if ((fsync && logFds.has(fsync[1]!) && / = 0$/.test(call)) || (/^<\.\.\. f(?:data)?sync resumed>.* = 0$/.test(call) && fsyncAt.has(pid))) {
      durable = Math.max(durable, fsyncAt.get(pid) ?? 0);
      fsyncAt.delete(pid);
    }
    const w = /^(?:write|pwrite64)\((\d+), "(.*)"/.exec(call);
    if (w && logFds.has(w[1]!)) written += w[2];
    else if (/^(?:write|writev|sendto|sendmsg)\(/.test(call)) {
      const token = tokenOf(call);
      if (token === undefined) continue;
      out.sent.push(token);
      if (!written.slice(0, durable).includes(token)) out.early.push(token);
    }
  }
  return out;
}

/** The run under strace (spawned, not spawnSync: the sandbox answering it lives in this process's event loop). */
async function straced(args: string[], env: Record<string, string>): Promise<string> {
  const out = join(tempDir('adops-wal-strace-'), 'trace');
  const child = spawn(
    'strace',
    ['-f', '-qq', '-s', '65536', '-o', out, '-e', 'trace=openat,write,writev,pwrite64,sendto,sendmsg,fsync,fdatasync', process.execPath, BIN, ...args],
    { env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const [code]: unknown[] = await once(child, 'exit');
  expect(code, stderr).toBe(0);
  return readFileSync(out, 'utf8');
}

beforeAll(() => ensureBuilt());

describe.skipIf(!hasStrace)('a request leaves only after the fsync that covers its record', () => {
  it('mutations apply: every POST carries an Idempotency-Key already fsynced in the journal; rows share fsyncs', async () => {
    const campaigns = (await campaignsOf(sb, DEMO.full, ACC)).map((c) => c.id);
    const dir = tempDir('adops-wal-apply-');
    const file = join(dir, 'rows.csv');
    const rows = Array.from({ length: 60 }, (_, i) => `${ACC},rename,campaign,${campaigns[i % campaigns.length]},wal ${i},,,,,`);
    writeFileSync(file, ['advertiserId,action,targetType,targetId,name,amount,budgetType,bidStrategy,bidAmount,body', ...rows].join('\n') + '\n');
    const trace = await straced(['mutations', 'apply', file, '--concurrency', '8', '--output', 'json'], {
      ADOPS_CONFIG_DIR: tempConfigDir(),
      ADOPS_BASE_URL: sb.url,
      ADOPS_API_KEY: DEMO.full,
    });
    const r = check(
      trace,
      (p) => p.endsWith('.adops-journal.ndjson'),
      (call) => (/POST \/mutations /.test(call) ? /idempotency-key: ([0-9A-Za-z_-]+)/i.exec(call)?.[1] : undefined),
    );
    expect(r.sent).toHaveLength(60);
    expect(r.early).toEqual([]);
    expect(r.fsyncs).toBeLessThan(60); // grouped, not one per row
  }, 150_000);

  it('assets sync: every PUT goes to an upload URL already fsynced in the run log; files share fsyncs', async () => {
    const dir = tempDir('adops-wal-sync-');
    mkdirSync(join(dir, 'creatives'));
    for (let i = 0; i < 24; i++) writeFileSync(join(dir, 'creatives', `c${i}.png`), png(10 + i, 10));
    const trace = await straced(['assets', 'sync', join(dir, 'creatives'), '--concurrency', '8', '--output', 'json'], {
      ADOPS_CONFIG_DIR: tempConfigDir(),
      ADOPS_BASE_URL: sb.url,
      ADOPS_API_KEY: DEMO.full,
    });
    const r = check(
      trace,
      (p) => p.includes('/uploads/runs/') && p.endsWith('.log.ndjson'),
      (call) => /PUT (\/[^ ?"\\]+)[^ ]* HTTP\/1\.1/.exec(call)?.[1],
    );
    expect(r.sent).toHaveLength(24);
    expect(r.early).toEqual([]);
    expect(r.fsyncs).toBeLessThan(2 * 24); // two records a file (sent, ready), fewer fsyncs
  }, 150_000);
});
