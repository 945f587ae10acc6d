// Issue 25 §3, the HIGH one: completion must never run code sent by the
// service. A stub service lists advertiser ids holding shell syntax (command
// substitution, backquotes, `;`, a redirection); a real interactive bash and
// zsh on a pty (script(1)) load the generated scripts, and the test types
// `adops observe campaigns --live <prefix>`, TAB, Enter, as a person would.
// No file the hostile ids name may exist afterwards, and a plain id still
// completes (the stub sees the command run with it). The same for the names
// zsh shows beside the ids (#28, #29): hostile descriptions are listed as
// plain text, never run, never an escape sequence on the screen.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, ensureBuilt, ROOT, runAdops, tempConfigDir } from '../helpers/cli.js';
import { endRefreshes, settleRefreshes } from '../helpers/completion-refresh.js';
import { tempDir } from '../helpers/temp.js';
import { zshCompinit } from '../helpers/zsh-compinit.js';

const KEY = 'acr_pty_test_key_0000000000000000';
/** Each hostile id has its own prefix, so on TAB it is the only match and a shell inserts it whole. */
const HOSTILE: Array<{ prefix: string; id: string; file: string }> = [
  { prefix: 'acc_a', id: 'acc_a$(touch${IFS}pwned_a)', file: 'pwned_a' },
  { prefix: 'acc_b', id: 'acc_b`touch${IFS}pwned_b`', file: 'pwned_b' },
  { prefix: 'acc_c', id: 'acc_c;touch${IFS}pwned_c', file: 'pwned_c' },
  { prefix: 'acc_d', id: 'acc_d>pwned_d', file: 'pwned_d' },
];
const OTHERS = ['*', '~root', ':files', '--help', 'acc_`id`', 'acc_with space', 'acc_$(id)', '-rf', 'acc_ok~1'];
const GOOD = 'acc_good_1';
/** What the service says beside the ids: every way a name could try to be code or drive the terminal. */
const HOSTILE_TEXT = {
  provider: '$(touch${IFS}pwned_p)',
  currency: '`touch${IFS}pwned_q`',
  name: '\u001b]0;TITLE-SET\u0007%F{red}$(touch${IFS}pwned_n);x\nnext:line\tcol \u001b[2J',
};
/** Two slugs with a common prefix: zsh lists both, with their names. */
const BRANDS = [
  { slug: 'hb-1', name: 'Plain Name One' },
  { slug: 'hb-2', name: HOSTILE_TEXT.name },
];

const bin = tempDir('adops-h25-bin-');

/** A stub service listing the ids; each shell gets its own, so the requests it records are that shell's alone. */
async function startStub(): Promise<{ url: string; seen: string[]; close: () => Promise<void> }> {
  const seen: string[] = [];
  const rows = [
    ...[...HOSTILE.map((h) => h.id), ...OTHERS, GOOD].map((advertiserId, i) => ({
      id: `cmp_${i}`,
      advertiserId,
      provider: HOSTILE_TEXT.provider,
      currency: HOSTILE_TEXT.currency,
    })),
    ...BRANDS,
  ];
  const server: Server = createServer((req, res) => {
    seen.push(decodeURIComponent(req.url ?? ''));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ data: rows, nextCursor: null }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

let stub: Awaited<ReturnType<typeof startStub>>;
beforeAll(async () => {
  ensureBuilt();
  // The wrapper notes each finished `adops __complete` in $ADOPS_PTY_COMPLETED (one file per shell): the test waits
  // for that count instead of sleeping a fixed time after each TAB.
  writeFileSync(
    join(bin, 'adops'),
    `#!/bin/sh\n"${process.execPath}" "${BIN}" "$@"\nrc=$?\n` +
      `case "$1" in __complete*) [ -n "$ADOPS_PTY_COMPLETED" ] && echo done >> "$ADOPS_PTY_COMPLETED";; esac\nexit $rc\n`,
  );
  chmodSync(join(bin, 'adops'), 0o755);
  stub = await startStub();
});
afterAll(() => stub?.close());

const env = (url: string, cfg: string) => ({ ADOPS_CONFIG_DIR: cfg, ADOPS_BASE_URL: url, ADOPS_API_KEY: KEY });
/** The ids come from the cache a background refresh fills: a first TAB, the refresh awaited. */
async function warm(e: Record<string, string>) {
  await runAdops(['__complete', 'observe', 'campaigns', '--live', ''], { env: e });
  await runAdops(['__complete', 'brands', 'get', ''], { env: e });
  await settleRefreshes(e.ADOPS_CONFIG_DIR!);
}
const have = (shell: string) => spawnSync('sh', ['-c', `command -v ${shell}`]).status === 0;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('adops __complete offers only the id alphabet', () => {
  // One cache for the three (the same stub, key and answers): each warmed its own, 2 TABs and a refresh apiece.
  let e: ReturnType<typeof env>;
  beforeAll(async () => {
    e = env(stub.url, tempConfigDir());
    await warm(e);
  });
  afterAll(() => endRefreshes(e.ADOPS_CONFIG_DIR));

  it('drops every hostile id, *, ~root, :files, --help, blanks and $(…); keeps plain ids', async () => {
    const r = await runAdops(['__complete', 'observe', 'campaigns', '--live', 'acc_'], { env: e });
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n').filter(Boolean).sort()).toEqual(['acc_good_1', 'acc_ok~1']);
    const any = await runAdops(['__complete', 'observe', 'campaigns', '--live', ''], { env: e });
    expect(any.stdout.split('\n').filter(Boolean).sort()).toEqual(['acc_good_1', 'acc_ok~1']);
  });

  it('a description is one line of plain text: no control character, no escape sequence, one tab before it', async () => {
    const adv = await runAdops(['__complete-describe', 'observe', 'campaigns', '--live', 'acc_'], { env: e });
    expect(adv.stdout.split('\n').filter(Boolean).sort()).toEqual([
      'acc_good_1\t$(touch${IFS}pwned_p) · `touch${IFS}pwned_q`',
      'acc_ok~1\t$(touch${IFS}pwned_p) · `touch${IFS}pwned_q`',
    ]);
    const brands = (await runAdops(['__complete-describe', 'brands', 'get', 'hb'], { env: e })).stdout.split('\n').filter(Boolean);
    expect(brands).toEqual(['hb-1\tPlain Name One', 'hb-2\t%F{red}$(touch${IFS}pwned_n);x next:line col']);
    for (const line of [...brands, ...adv.stdout.split('\n')]) expect(line).not.toMatch(/[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/);
  });

  it.skipIf(!have('fish'))('fish shows the hostile names as text beside the ids and runs none of them', async () => {
    const work = tempDir('adops-h25-fish-');
    const fish = (line: string) =>
      spawnSync('fish', ['--no-config', '-c', `source ${JSON.stringify(join(ROOT, 'completions', 'adops.fish'))}; complete -C ${JSON.stringify(line)}`], {
        cwd: work,
        env: { PATH: `${bin}:${process.env.PATH}`, HOME: work, LANG: 'C.UTF-8', ...e },
        encoding: 'utf8',
        timeout: 20_000,
      });
    const brands = fish('adops brands get hb');
    expect(brands.status, brands.stderr).toBe(0);
    expect(brands.stdout.split('\n').filter(Boolean)).toEqual(['hb-1\tPlain Name One', 'hb-2\t%F{red}$(touch${IFS}pwned_n);x next:line col']);
    const adv = fish('adops observe campaigns --live acc_');
    expect(adv.stdout.split('\n').filter(Boolean).sort()).toEqual([
      'acc_good_1\t$(touch${IFS}pwned_p) · `touch${IFS}pwned_q`',
      'acc_ok~1\t$(touch${IFS}pwned_p) · `touch${IFS}pwned_q`',
    ]);
    // fish keeps its own state under HOME; nothing else appeared.
    expect(readdirSync(work).filter((f) => !f.startsWith('.'))).toEqual([]);
  });
});

/** An interactive shell on a pty; `type` writes keys, `waitFor` waits for text on the screen. */
function shellOnPty(shell: 'bash' | 'zsh', cwd: string, shellEnv: Record<string, string>) {
  const cmd = shell === 'bash' ? 'bash --norc --noprofile -i' : 'zsh -f -i';
  const child: ChildProcess = spawn('script', ['-qfec', `stty cols 200 rows 50; exec ${cmd}`, '/dev/null'], {
    cwd,
    env: { PATH: `${bin}:${process.env.PATH}`, HOME: cwd, TERM: 'xterm', LANG: 'C.UTF-8', PS1: '$ ', ...shellEnv },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let screen = '';
  child.stdout!.on('data', (c) => (screen += c));
  child.stderr!.on('data', (c) => (screen += c));
  const waitFor = async (text: string, ms = 20_000) => {
    const until = Date.now() + ms;
    while (!screen.includes(text)) {
      if (Date.now() > until) throw new Error(`${shell}: "${text}" never shown; screen:\n${screen}`);
      await sleep(50);
    }
  };
  /** Wait until nothing new has been drawn for `quietMs` (the shell has finished drawing what the TAB produced). */
  const settle = async (quietMs = 200, ms = 20_000) => {
    const until = Date.now() + ms;
    let last = screen.length;
    let since = Date.now();
    while (Date.now() - since < quietMs) {
      if (Date.now() > until) throw new Error(`${shell}: the screen never settled; screen:\n${screen}`);
      await sleep(25);
      if (screen.length !== last) [last, since] = [screen.length, Date.now()];
    }
  };
  return {
    type: (keys: string) => void child.stdin!.write(keys),
    waitFor,
    settle,
    screen: () => screen,
    close: () => {
      child.stdin!.end('exit\r');
      setTimeout(() => child.kill('SIGKILL'), 2000).unref();
    },
  };
}

// The two shells are independent (own stub service, config dir, work dir and completion log): they run side by side.
describe.concurrent.each(['bash', 'zsh'] as const)('TAB then Enter in a real %s on a pty', (shell) => {
  const present = have(shell);
  if (!present) console.error(`\n!!! ${shell} is not installed here: its pty completion test is SKIPPED (apt-get install ${shell}) !!!\n`);
  it.skipIf(!present)(
    'no hostile id is inserted or run; a plain id completes',
    async () => {
      const work = tempDir(`adops-h25-${shell}-`);
      const service = await startStub();
      const seen = service.seen;
      const completed = join(tempDir(`adops-h25-${shell}-log-`), 'completed');
      const completions = () => (existsSync(completed) ? readFileSync(completed, 'utf8').split('\n').filter(Boolean).length : 0);
      const shellEnv = env(service.url, tempConfigDir());
      await warm(shellEnv);
      const sh = shellOnPty(shell, work, { ...shellEnv, ADOPS_PTY_COMPLETED: completed });
      try {
        const setup =
          shell === 'bash'
            ? `source ${join(ROOT, 'completions', 'adops.bash')}`
            : `${zshCompinit({ base: true })}; source ${join(ROOT, 'completions', 'adops.zsh')}`;
        // The markers are computed by the shell ($((…))), so the terminal's echo of the typed line never matches them:
        // waitFor sees the command's output, not the keys (which it did, and checked before the command had run).
        sh.type(`${setup}; echo READY-$((0))\r`);
        await sh.waitFor('READY-0\r\n');
        // zsh lists the two brands with their names (the hostile one among them); bash has no names.
        const lines = [...HOSTILE.map((h) => h.prefix), 'acc_go', ...(shell === 'zsh' ? ['hb'] : [])];
        for (const [i, prefix] of lines.entries()) {
          const before = completions();
          sh.type(prefix === 'hb' ? `adops brands get ${prefix}\t` : `adops observe campaigns --live ${prefix}\t`);
          // The TAB has run `adops __complete` (it asked the service, or read its cache; the wrapper counts its exit)
          // and the shell has drawn the result (the screen is quiet), as a person would see before pressing Enter.
          const until = Date.now() + 20_000;
          while (completions() === before) {
            if (Date.now() > until) throw new Error(`${shell}: TAB ${i + 1} never ran adops __complete; screen:\n${sh.screen()}`);
            await sleep(25);
          }
          await sh.settle();
          // The plain id must be on the line before Enter (a hostile prefix has nothing to wait for: whatever was
          // inserted runs).
          if (prefix === 'acc_go') await sh.waitFor(GOOD, 15_000);
          if (prefix === 'hb') await sh.waitFor('Plain Name One', 15_000);
          sh.type(`\r`);
          sh.type(`echo DONE-$((${i} + 1))\r`);
          await sh.waitFor(`DONE-${i + 1}\r\n`);
        }
        const made = readdirSync(work).filter((f) => f.startsWith('pwned'));
        expect(made, `${shell} ran a command sent by the service; screen:\n${sh.screen()}`).toEqual([]);
        for (const h of HOSTILE) expect(existsSync(join(work, h.file))).toBe(false);
        // The plain id was inserted: the command ran with it.
        expect(
          seen.some((u) => u.includes(GOOD)),
          `requests: ${seen.join(' ')}; screen:\n${sh.screen()}`,
        ).toBe(true);
        // Nothing hostile reached the service as an argument either.
        expect(seen.filter((u) => /touch|pwned/.test(u))).toEqual([]);
        if (shell === 'zsh') {
          // The hostile name was listed as text, its escape sequences gone (no title set, no screen cleared).
          expect(sh.screen()).toContain('%F{red}$(touch${IFS}pwned_n);x next:line col');
          expect(sh.screen()).not.toContain('TITLE-SET');
          expect(sh.screen()).not.toContain('\u001b[2J');
        }
      } finally {
        sh.close();
        await endRefreshes(shellEnv.ADOPS_CONFIG_DIR);
        await service.close();
      }
    },
    90_000,
  );
});
