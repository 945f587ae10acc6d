// `adops demo`, the README's first command, run as CI runs it: the built
// binary, stdin closed, CI=true. It must exit 0, print the tour on stdout, put
// no API key on any command line (checked from /proc while it runs) nor in its
// output, and leave the user's config alone.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { baseEnv, BIN, ensureBuilt, ROOT, tempConfigDir, type RunResult } from '../helpers/cli.js';

/** Parent pid of each running process, from /proc/PID/stat. */
function parents(): Map<number, number> {
  const map = new Map<number, number>();
  for (const p of readdirSync('/proc')) {
    if (!/^\d+$/.test(p)) continue;
    try {
      const stat = readFileSync(`/proc/${p}/stat`, 'utf8');
      // "pid (comm) state ppid ...": comm may hold spaces, so read after the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      map.set(Number(p), ppid);
    } catch {
      // the process ended
    }
  }
  return map;
}

/**
 * Run `adops demo` piped (stdin closed) and, while it runs, sample the command
 * lines of it and all its descendants; keep those that mention an acr_ key.
 */
function runDemo(env: Record<string, string>): Promise<RunResult & { keyedArgv: string[]; sampledChildren: number }> {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, [BIN, 'demo'], { cwd: ROOT, env: baseEnv(env), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.stdin.end();
    const keyed = new Set<string>();
    const children = new Set<number>();
    const watch = existsSync('/proc/self/stat');
    const sample = () => {
      if (!watch || child.pid === undefined) return;
      const ppid = parents();
      const ours = new Set([child.pid]);
      for (let grew = true; grew;) {
        grew = false;
        for (const [pid, parent] of ppid)
          if (ours.has(parent) && !ours.has(pid)) {
            ours.add(pid);
            grew = true;
          }
      }
      for (const pid of ours) {
        try {
          const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
          if (pid !== child.pid && cmd.includes(BIN)) children.add(pid);
          if (/acr_[A-Za-z0-9]/.test(cmd)) keyed.add(cmd);
        } catch {
          // the process ended
        }
      }
    };
    const sampler = setInterval(sample, 20);
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.on('close', (code, signal) => {
      clearInterval(sampler);
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, ms: Date.now() - started, keyedArgv: [...keyed], sampledChildren: children.size });
    });
  });
}

let r: RunResult & { keyedArgv: string[]; sampledChildren: number };
let userConfig: string;

beforeAll(async () => {
  ensureBuilt();
  userConfig = tempConfigDir();
  r = await runDemo({ CI: 'true', ADOPS_CONFIG_DIR: userConfig });
}, 120_000);

describe('adops demo', () => {
  it('exits 0 when every step behaved as expected, with stdin closed and CI=true', () => {
    expect(r.signal).toBeNull();
    expect(r.code, `${r.stdout}\n${r.stderr}`).toBe(0);
    expect(r.stdout).toMatch(/demo: \d+ steps, all behaved as expected/);
    expect(r.stderr).not.toMatch(/demo:/);
  });

  it('shows the key steps as `$ adops …` lines followed by their output', () => {
    const out = r.stdout;
    expect(out).toContain('$ adops doctor\n');
    expect(out).toMatch(/✓ subscription: active/);
    expect(out).toContain('$ adops observe campaigns --limit 5\n');
    expect(out).toMatch(/\$ adops observe campaigns --live acc_acme_a_001 --limit 3/);
    // The failure case: the message, the hint and the exit code.
    expect(out).toMatch(/\$ adops observe campaigns --live acc_acme_a_001 --status PAUSED\nerror: live_read_unsupported \(501\)/);
    expect(out).toMatch(/hint: Read the stored copy/);
    expect(out).toContain('(exit 7, as expected)');
    // A budget change on a campaign found with --query, waited to success, then seen live.
    const found = /\$ adops observe campaigns --advertiser acc_acme_a_001 --query .*budgetLevel.*-o json\n"(\d+)"\n/.exec(out);
    expect(found).not.toBeNull();
    const campaign = found![1];
    expect(out).toContain(`$ adops mutations budget acc_acme_a_001 --campaign ${campaign} --amount 75 --type daily --wait`);
    expect(out).toMatch(/state: succeeded/);
    expect(out).toMatch(/│ action\s+│ set_budget\s+│/);
    expect(out).toMatch(/│ state\s+│ succeeded\s+│/);
    expect(out).toMatch(new RegExp(`│ ${campaign} │ [^│]+│\\s+75\\.00 USD │ daily\\s+│`));
    // Insights by week: the table; --chart is not drawn off a terminal, and adops says so.
    expect(out).toContain('$ adops observe insights --since 2026-09-01 --until 2026-09-30 --grain week --advertiser acc_acme_a_001 --chart spend\n');
    expect(out).toMatch(/warning: --chart draws under a table on a terminal; not drawn when stdout is not a terminal/);
    expect(out).toMatch(/│ dateStart\s+│ dateStop\s+│ advertiserId\s+│/);
    expect(out).toMatch(/│ 2026-09-07 │ 2026-09-13 │ acc_acme_a_001 │/);
    // The revision-safe edit: the other writer got in between, adops re-applied, both fields are there.
    expect(out).toMatch(/\$ adops brands create --slug demo-outdoor /);
    expect(out).toMatch(/\$ adops brands update demo-outdoor --description 'Gear for the outdoors'\n/);
    expect(out).toMatch(/changed meanwhile \(revision 2: voice\); re-applying yours/);
    const got = out.slice(out.indexOf('$ adops brands get demo-outdoor'));
    expect(got).toMatch(/│ description │ Gear for the outdoors\s+│/);
    expect(got).toMatch(/│ voice\s+│ Warm, plain, practical │/);
    expect(got).toMatch(/│ revision\s+│ 3\s+│/);
    // The upload: progress lines (plain, off a terminal), ready, registered; then the destructive delete.
    expect(out).toMatch(/\$ adops assets upload \/\S+\/demo-logo\.png --register acc_acme_a_001\n/);
    expect(out).toMatch(/demo-logo\.png: sending 70 B as image\/png\n/);
    expect(out).toMatch(/demo-logo\.png: ready as ast_\w+\n/);
    expect(out).toMatch(/│ ast_\w+ │ demo-logo\.png │ ready │ image │ image\/png │/);
    expect(out).toMatch(/\$ adops assets get ast_\w+ --fields [\s\S]*?│ state\s+│ ready\s+│/);
    expect(out).toMatch(/│ registrations\.0\.advertiserId\s+│ acc_acme_a_001\s+│/);
    expect(out).not.toMatch(/\$ adops api /);
    expect(out).toMatch(/\$ adops assets delete (ast_\w+)\nerror: "adops assets delete \1" is destructive/);
    expect(out).toContain('(exit 2, as expected)');
    expect(out).toMatch(/\$ adops assets delete ast_\w+ --yes\n/);
    expect(out).toContain('(exit 4, as expected)');
    expect(out).toMatch(/Next steps[\s\S]*adops sandbox serve --login/);
  });

  it('prints no API key: no `$ adops` line names one, and the output holds at most the masked form', () => {
    const commandLines = r.stdout.split('\n').filter((l) => l.startsWith('$ adops'));
    expect(commandLines.length).toBeGreaterThan(8);
    for (const line of commandLines) expect(line).not.toMatch(/acr_/);
    // doctor shows the key masked (acr_…0001); nothing longer.
    expect(r.stdout + r.stderr).not.toMatch(/acr_[A-Za-z0-9]/);
  });

  it('puts no key on any command line while it runs (sampled from /proc)', () => {
    if (!existsSync('/proc/self/stat')) return; // no /proc here
    // The sampler did see the demo's adops children (each lives a few hundred ms).
    expect(r.sampledChildren).toBeGreaterThan(3);
    expect(r.keyedArgv).toEqual([]);
  });

  it("never reads or writes the user's config (a temporary dir is used and removed)", () => {
    expect(existsSync(join(userConfig, 'config.json'))).toBe(false);
    const dir = /✓ config: (\S+)config\.json/.exec(r.stdout)?.[1];
    expect(dir).toBeDefined();
    expect(dir!.startsWith(userConfig)).toBe(false);
    expect(existsSync(dir!)).toBe(false);
    // The image the demo wrote to upload went with it.
    const png = /\$ adops assets upload (\S+demo-logo\.png)/.exec(r.stdout)?.[1];
    expect(png).toBeDefined();
    expect(existsSync(png!)).toBe(false);
  });
});
