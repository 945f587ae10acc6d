// adops demo: start a throwaway in-memory sandbox, point a temporary config
// dir at it, and run adops itself (child processes of this very CLI, as a
// user would) through a short tour of real workflows, printing each step as
// `$ adops …` followed by its output. stdout carries the transcript (it is the
// result); the exit code says whether every step behaved as expected, so CI
// can run it. The demo key reaches the steps only through ADOPS_API_KEY.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CommandContext } from '../../cli/context.js';
import { EXIT } from '../../cli/exit-codes.js';
import { InterruptedError } from '../../cli/errors.js';
import { otherWriterSetsVoice } from './race.js';

/** Advertiser of the demo world at provider_a, which accepts no status filter on live reads (spec). */
export const DEMO_ADVERTISER = 'acc_acme_a_001';
/** A month of the demo world's insights (they cover the 90 days ending 2026-09-30). */
const INSIGHTS_SINCE = '2026-09-01';
const INSIGHTS_UNTIL = '2026-09-30';
/** The brand the revision-safe edit creates, and the two writers' values. */
const DEMO_BRAND = 'demo-outdoor';
const OUR_DESCRIPTION = 'Gear for the outdoors';
const THEIR_VOICE = 'Warm, plain, practical';
/** A 1×1 PNG: small, and a real image the sandbox sniffs. */
const PNG_1x1 = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

interface StepOptions {
  /** Variables that differ from the demo's for this step (ADOPS_BASE_URL of the race relay). */
  env?: Record<string, string>;
  /** Give the child the demo's own stdout and stderr (a terminal): its output is then not captured nor checked. */
  terminal?: boolean;
}

interface StepResult {
  code: number;
  text: string;
  stdout: string;
}

/** The launcher of this package (bin/adops.js), found from this file so bundling or cwd do not matter. */
export function adopsBin(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg)) {
      try {
        const data = JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string; bin?: Record<string, string> };
        if (data.name === 'adops') return resolve(dir, data.bin?.adops ?? 'bin/adops.js');
      } catch {
        // not ours; keep looking
      }
    }
    const up = dirname(dir);
    if (up === dir) break;
    dir = up;
  }
  return resolve(process.argv[1] ?? 'bin/adops.js');
}

/** The JSON a step printed, or undefined. */
function jsonOf(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

const quote = (s: string) => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/** Rows of a table printed by adops (cli-table3, box characters), keyed by the header's column names. */
export function parseTable(text: string): Array<Record<string, string>> {
  const lines = text.split('\n').filter((l) => l.startsWith('│'));
  const cells = (l: string) =>
    l
      .split('│')
      .slice(1, -1)
      .map((c) => c.trim());
  const [head, ...rows] = lines;
  if (!head) return [];
  const names = cells(head);
  return rows.map((r) => Object.fromEntries(cells(r).map((c, i) => [names[i] ?? String(i), c])));
}

export async function run(ctx: CommandContext): Promise<number> {
  const started = Date.now();
  const out = (s: string) => void ctx.io.stdout.write(s);
  const bold = (s: string) => (ctx.output.color ? `\x1b[1m${s}\x1b[22m` : s);
  const dim = (s: string) => (ctx.output.color ? `\x1b[2m${s}\x1b[22m` : s);
  const bin = adopsBin();

  out(`${bold('adops demo')}: a short tour of real adops commands against a throwaway local sandbox\n`);
  const { startSandbox, startRaceRelay, DEMO_PLAN, DEMO_LINE_ITEMS } = await import('../../sandbox/index.js');
  const sandbox = await startSandbox({ port: 0, data: ':memory:', quiet: true });
  const configHome = mkdtempSync(join(tmpdir(), 'adops-demo-'));
  const configDir = join(configHome, 'config');
  const failures: string[] = [];
  let steps = 0;
  let child: ReturnType<typeof spawn> | undefined;
  const onAbort = () => child?.kill('SIGTERM');
  ctx.signal.addEventListener('abort', onAbort, { once: true });

  try {
    const key = sandbox.keys[0]?.key;
    if (!key) throw new Error('the sandbox has no demo key');
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(ctx.env)) if (v !== undefined && !k.startsWith('ADOPS_')) env[k] = v;
    Object.assign(env, { ADOPS_CONFIG_DIR: configDir, ADOPS_BASE_URL: sandbox.url, ADOPS_API_KEY: key });
    if (ctx.debug) env.ADOPS_DEBUG = '1';

    out(`Sandbox: ${sandbox.url} (in memory: everything here is gone when the demo ends)\n`);
    out(`Each step runs adops as you would, with a temporary config dir, ADOPS_BASE_URL set to the sandbox\n`);
    out(`and a demo key in ADOPS_API_KEY (the environment, never the command line). Your own config is not touched.\n`);

    const say = (text: string) => out(`\n${dim(`# ${text}`)}\n`);
    const fail = (why: string) => {
      failures.push(why);
      out(`✗ ${why}\n`);
      ctx.warn(`demo: ${why}`);
    };

    /** One step: `$ adops ARGS`, its output as it comes, then whether it behaved as expected. */
    const adops = async (
      args: string[],
      expectCode = 0,
      check?: (r: StepResult) => string | undefined,
      opts: StepOptions = {},
    ): Promise<StepResult | undefined> => {
      if (ctx.signal.aborted) throw new InterruptedError();
      if (args.some((a) => a.includes(key))) throw new Error('refusing to put the API key on a command line');
      steps++;
      out(`${bold(`$ adops ${args.map(quote).join(' ')}`)}\n`);
      const result = await new Promise<StepResult>((done, reject) => {
        let text = '';
        let stdout = '';
        const c = spawn(process.execPath, [bin, ...args], {
          env: { ...env, ...opts.env },
          stdio: opts.terminal ? ['ignore', 'inherit', 'inherit'] : ['ignore', 'pipe', 'pipe'],
        });
        child = c;
        c.stdout?.on('data', (chunk: Buffer) => {
          const s = chunk.toString('utf8');
          stdout += s;
          text += s;
          out(s);
        });
        c.stderr?.on('data', (chunk: Buffer) => {
          const s = chunk.toString('utf8');
          text += s;
          out(s);
        });
        c.on('error', reject);
        c.on('close', (code, signal) => {
          child = undefined;
          if (!text.endsWith('\n') && text !== '') out('\n');
          done({ code: code ?? (signal ? 128 : 1), text, stdout });
        });
      });
      if (ctx.signal.aborted) throw new InterruptedError();
      if (result.code !== expectCode) {
        fail(`"adops ${args.join(' ')}" exited ${result.code}, expected ${expectCode}`);
        return undefined;
      }
      const problem = check?.(result);
      if (problem) {
        fail(`"adops ${args.join(' ')}": ${problem}`);
        return undefined;
      }
      if (expectCode !== 0) out(dim(`(exit ${result.code}, as expected)`) + '\n');
      return result;
    };

    say('Tables for people (a pipe gets JSON by default); this writes the temporary config only');
    await adops(['config', 'set', 'output', 'table']);

    say('Is everything set up? doctor checks config, key, reachability, subscription and permissions');
    await adops(['doctor']);

    say('The stored copy of every connected provider, newest first');
    await adops(['observe', 'campaigns', '--limit', '5'], 0, (r) => (/provider_[a-g]/.test(r.stdout) ? undefined : 'no campaign rows'));

    say('A live read asks the provider itself (counts against its rate limits)');
    await adops(['observe', 'campaigns', '--live', DEMO_ADVERTISER, '--limit', '3', '--fields', 'id,name,status,budget,currency'], 0, (r) =>
      parseTable(r.stdout).length > 0 ? undefined : 'no campaign rows',
    );

    say('When something fails you get the reason, a hint and an exit code: provider_a cannot filter live reads by status');
    await adops(['observe', 'campaigns', '--live', DEMO_ADVERTISER, '--status', 'PAUSED'], EXIT.refused, (r) =>
      r.text.includes('live_read_unsupported') ? undefined : 'no live_read_unsupported error',
    );

    say('A budget change. First pick a campaign that holds its own budget (--query is JMESPath over the rows)');
    const found = await adops(
      ['observe', 'campaigns', '--advertiser', DEMO_ADVERTISER, '--query', "[?budgetLevel=='campaign'] | [0].id", '-o', 'json'],
      0,
      (r) => (typeof jsonOf(r.stdout) === 'string' ? undefined : 'no campaign with a campaign-level budget'),
    );
    const campaign = found ? (jsonOf(found.stdout) as string) : undefined;
    if (campaign) {
      say(`Set its daily budget to 75: the change is started once (Idempotency-Key) and --wait follows it to the end`);
      await adops(
        [
          'mutations',
          'budget',
          DEMO_ADVERTISER,
          '--campaign',
          campaign,
          '--amount',
          '75',
          '--type',
          'daily',
          '--wait',
          '--interval',
          '0.5',
          '--fields',
          'id,action,target,changes,state',
        ],
        0,
        (r) => (/succeeded/.test(r.stdout) ? undefined : 'the mutation did not succeed'),
      );
      say('The live read shows the new budget at the provider');
      await adops(['observe', 'campaigns', '--live', DEMO_ADVERTISER, '--ids', campaign, '--fields', 'id,name,budget,budgetType'], 0, (r) =>
        parseTable(r.stdout).some((row) => row.id === campaign && /^75\.00\b/.test(row.budget ?? '') && row.budgetType === 'daily')
          ? undefined
          : 'the live read does not show a daily budget of 75.00',
      );
    } else fail('skipped the budget change: no campaign with a campaign-level budget was found');

    const onTerminal = ctx.io.stdoutIsTTY && ctx.io.stderrIsTTY;
    say(
      onTerminal
        ? 'Performance by ISO week; --chart draws spend under the table on a terminal (this step writes straight to yours)'
        : 'Performance by ISO week. --chart draws under the table on a terminal only: this transcript is not one, so adops says so and prints the table',
    );
    await adops(
      ['observe', 'insights', '--since', INSIGHTS_SINCE, '--until', INSIGHTS_UNTIL, '--grain', 'week', '--advertiser', DEMO_ADVERTISER, '--chart', 'spend'],
      0,
      onTerminal
        ? undefined
        : (r) => (/│ dateStart\s+│ dateStop\s+│/.test(r.stdout) && r.stdout.includes(DEMO_ADVERTISER) ? undefined : `no weekly rows for ${DEMO_ADVERTISER}`),
      { terminal: onTerminal },
    );

    say(
      `Is what runs what was planned? The demo's approved plan ${DEMO_PLAN.slug} recorded the campaigns its Line Items launched; ` +
        'plans verify reads them live (one ids= list per advertiser) and compares status, budget and objective: no rows, in sync',
    );
    await adops(['plans', 'verify', DEMO_PLAN.slug, '--exit-code'], 0, (r) => (/in sync/.test(r.text) ? undefined : 'the demo plan is not in sync'));
    say(
      `Is it pacing? Spend to date from Insights against the plan, as of ${INSIGHTS_UNTIL} (the last day with Insights); ` +
        '--exit-code exits 11 because one Line Item paces outside the 90–110 % band (--chart draws it on a terminal)',
    );
    await adops(['plans', 'pacing', DEMO_PLAN.slug, '--as-of', INSIGHTS_UNTIL, '--exit-code'], EXIT.findings, (r) => {
      const rows = parseTable(r.stdout);
      const inBand = (id: string) => rows.find((row) => row.lineItemId === id)?.inBand;
      return inBand(DEMO_LINE_ITEMS.retargeting) === 'true' && inBand(DEMO_LINE_ITEMS.prospecting) === 'false'
        ? undefined
        : 'expected Retargeting on pace and Prospecting under it';
    });

    say(`A revision-safe edit: create a brand, then change its description while someone else changes its voice`);
    await adops(['brands', 'create', '--slug', DEMO_BRAND, '--name', 'Demo Outdoor', '--description', 'Gear'], 0, (r) =>
      /│ revision\s+│ 1\s+│/.test(r.stdout) ? undefined : 'the brand was not created at revision 1',
    );
    const brandPath = `/context/brands/${DEMO_BRAND}`;
    const relay = await startRaceRelay(sandbox.url, brandPath, async () => {
      // The other writer: reads the brand and sets its voice at that revision, after adops read it and before adops writes.
      const revision = await otherWriterSetsVoice(ctx, sandbox.url, key, DEMO_BRAND, THEIR_VOICE);
      out(dim(`# (meanwhile another writer set the voice: brand ${DEMO_BRAND} is now at revision ${String(revision)})`) + '\n');
    });
    try {
      say(
        `For this step ADOPS_BASE_URL is a loopback relay in the demo: after adops reads the brand, the other writer changes the voice through the API, ` +
          `so adops's write meets 409 revision_mismatch; it reads again, sees only the voice changed, and re-applies the description`,
      );
      await adops(
        ['brands', 'update', DEMO_BRAND, '--description', OUR_DESCRIPTION],
        0,
        (r) => {
          if (!relay.raced()) return 'the other writer did not get in between';
          return /changed meanwhile/.test(r.text) ? undefined : 'adops did not report the change made meanwhile';
        },
        { env: { ADOPS_BASE_URL: relay.url } },
      );
    } finally {
      await relay.close();
    }
    say('Both changes are there: their voice and your description');
    await adops(['brands', 'get', DEMO_BRAND, '--fields', 'slug,name,description,voice,revision'], 0, (r) => {
      const row = Object.fromEntries(
        r.stdout
          .split('\n')
          .filter((l) => l.startsWith('│'))
          .map((l): [string, string] => {
            const cells = l
              .split('│')
              .slice(1, -1)
              .map((c) => c.trim());
            return [cells[0] ?? '', cells[1] ?? ''];
          }),
      );
      return row.description === OUR_DESCRIPTION && row.voice === THEIR_VOICE ? undefined : 'the brand does not hold both changes';
    });

    say(
      'Upload an image: adops reserves an Asset, sends the bytes to its upload URL (without the API key), finalizes, and registers it; progress goes to stderr',
    );
    const png = join(configHome, 'demo-logo.png');
    writeFileSync(png, PNG_1x1);
    const uploaded = await adops(['assets', 'upload', png, '--register', DEMO_ADVERTISER], 0, (r) =>
      parseTable(r.stdout).some((row) => row.state === 'ready' && /^ast_/.test(row.id ?? '')) ? undefined : 'the Asset is not ready',
    );
    const asset = uploaded ? parseTable(uploaded.stdout).find((row) => row.state === 'ready')?.id : undefined;

    if (asset) {
      say(`The Asset as the service holds it: the type, size and dimensions it read from the bytes, and its registration to ${DEMO_ADVERTISER}`);
      await adops(['assets', 'get', asset, '--fields', 'id,filename,state,kind,mimeType,sizeBytes,width,height,registrations'], 0, (r) => {
        if (!/│ state\s+│ ready\s+│/.test(r.stdout)) return 'the Asset is not ready';
        return new RegExp(`│ registrations\\.0\\.advertiserId\\s+│ ${DEMO_ADVERTISER}\\s+│`).test(r.stdout)
          ? undefined
          : `the Asset is not registered to ${DEMO_ADVERTISER}`;
      });

      say('Destructive commands ask first on a terminal and need --yes elsewhere (this step runs without one)');
      await adops(['assets', 'delete', asset], EXIT.usage, (r) => (/--yes/.test(r.text) ? undefined : 'no mention of --yes'));
      say('…so nothing was deleted');
      await adops(['assets', 'get', asset, '--fields', 'id,filename,state'], 0);
      say('With --yes it is deleted, and a read answers 404 (exit 4)');
      await adops(['assets', 'delete', asset, '--yes'], 0, (r) => (/deleted/.test(r.stdout) ? undefined : 'no "deleted" in the answer'));
      await adops(['assets', 'get', asset], EXIT.notFound);
    }

    out(`\n${bold('Next steps')}\n`);
    out('  adops sandbox serve --login   keep a sandbox running (another terminal) and point the "sandbox" profile at it\n');
    out('  adops observe campaigns       …then run any command above against it, without copying a key\n');
    out('  adops sandbox keys            the demo keys: other organizations, read-only, revoked, unsubscribed\n');
    out('  adops --help                  every command (docs/cli.md); exit codes: docs/exit-codes.md\n');
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    if (failures.length === 0) {
      out(`\ndemo: ${steps} steps, all behaved as expected (${seconds} s)\n`);
      return EXIT.ok;
    }
    out(`\ndemo: ${failures.length} of ${steps} steps did not behave as expected (${seconds} s)\n`);
    return EXIT.unexpected;
  } finally {
    ctx.signal.removeEventListener('abort', onAbort);
    child?.kill('SIGTERM');
    await sandbox.close();
    rmSync(configHome, { recursive: true, force: true });
  }
}
