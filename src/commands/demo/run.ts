// adops demo: start a throwaway in-memory sandbox, point a temporary config
// dir at it, and run adops itself (child processes of this very CLI, as a
// user would) through a short tour of real workflows, printing each step as
// `$ adops …` followed by its output. stdout carries the transcript (it is the
// result); the exit code says whether every step behaved as expected, so CI
// can run it. The demo key reaches the steps only through ADOPS_API_KEY.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CommandContext } from '../../cli/context.js';
import { EXIT } from '../../cli/exit-codes.js';
import { InterruptedError } from '../../cli/errors.js';

/** Advertiser of the demo world at provider_a, which accepts no status filter on live reads (spec). */
export const DEMO_ADVERTISER = 'acc_acme_a_001';
/** The demo world's insights cover the 90 days ending on this date. */
const INSIGHTS_SINCE = '2026-07-03';
const INSIGHTS_UNTIL = '2026-09-30';
/** A 1×1 PNG: small, and a real image the sandbox sniffs. */
const PNG_1x1 = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

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

const quote = (s: string) => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/** Rows of a table printed by adops (cli-table3, box characters), keyed by the header's column names. */
export function parseTable(text: string): Array<Record<string, string>> {
  const lines = text.split('\n').filter((l) => l.startsWith('│'));
  const cells = (l: string) => l.split('│').slice(1, -1).map((c) => c.trim());
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
  const { startSandbox } = await import('../../sandbox/index.js');
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
    const adops = async (args: string[], expectCode = 0, check?: (r: StepResult) => string | undefined): Promise<StepResult | undefined> => {
      if (ctx.signal.aborted) throw new InterruptedError();
      if (args.some((a) => a.includes(key))) throw new Error('refusing to put the API key on a command line');
      steps++;
      out(`${bold(`$ adops ${args.map(quote).join(' ')}`)}\n`);
      const result = await new Promise<StepResult>((done, reject) => {
        let text = '';
        let stdout = '';
        const c = spawn(process.execPath, [bin, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
        child = c;
        c.stdout!.on('data', (chunk: Buffer) => {
          const s = chunk.toString('utf8');
          stdout += s;
          text += s;
          out(s);
        });
        c.stderr!.on('data', (chunk: Buffer) => {
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
    const liveArgs = ['observe', 'campaigns', '--live', DEMO_ADVERTISER, '--limit', '3', '--fields', 'id,name,status,budget,currency'];
    const live = await adops(liveArgs, 0, (r) => (parseTable(r.stdout).some((row) => row.status === 'ACTIVE') ? undefined : 'no ACTIVE campaign to pause'));
    const campaign = live ? parseTable(live.stdout).find((row) => row.status === 'ACTIVE')?.id : undefined;

    say(`Performance: insights per advertiser over the demo world's 90 days (no named command yet: adops api, which prints JSON unless told)`);
    await adops(
      ['api', 'GET', '/observe/insights', '-f', `since=${INSIGHTS_SINCE}`, '-f', `until=${INSIGHTS_UNTIL}`, '-f', 'breakdown=advertiser', '--paginate', '-o', 'table', '--fields', 'advertiserId,currency,spend,impressions,clicks,conversions'],
      0,
      (r) => (r.stdout.includes(DEMO_ADVERTISER) ? undefined : `no row for ${DEMO_ADVERTISER}`),
    );

    if (campaign) {
      say(`Pause campaign ${campaign}: the change is started once (Idempotency-Key) and --wait follows it to the end`);
      await adops(
        ['mutations', 'start', '--advertiser', DEMO_ADVERTISER, '--action', 'pause', '-f', 'target.type=campaign', '-f', `target.id=${campaign}`, '--wait', '--interval', '0.5', '--fields', 'id,state,action,target'],
        0,
        (r) => (/succeeded/.test(r.stdout) ? undefined : 'the mutation did not succeed'),
      );

      say('The live read shows the change at the provider');
      await adops(['observe', 'campaigns', '--live', DEMO_ADVERTISER, '--ids', campaign, '--fields', 'id,name,status'], 0, (r) =>
        parseTable(r.stdout).some((row) => row.id === campaign && row.status === 'PAUSED') ? undefined : 'the campaign is not PAUSED',
      );
    } else fail('skipped the mutation: no ACTIVE campaign was found');

    say('When something fails you get the reason, a hint and an exit code: provider_a cannot filter live reads by status');
    await adops(['observe', 'campaigns', '--live', DEMO_ADVERTISER, '--status', 'PAUSED'], EXIT.refused, (r) =>
      r.text.includes('live_read_unsupported') ? undefined : 'no live_read_unsupported error',
    );

    say('Upload an image: reserve an Asset (no named command yet: adops api), which returns an uploadUrl');
    const reserved = await adops(['api', 'POST', '/assets/uploads', '-f', 'filename=demo-logo.png', '--json'], 0, (r) => {
      try {
        const body = JSON.parse(r.stdout) as { id?: unknown; uploadUrl?: unknown };
        return typeof body.id === 'string' && typeof body.uploadUrl === 'string' ? undefined : 'no id or uploadUrl in the answer';
      } catch {
        return 'the answer is not JSON';
      }
    });
    const asset = reserved ? (JSON.parse(reserved.stdout) as { id: string; uploadUrl: string }) : undefined;

    if (asset) {
      say(`Send the bytes to the uploadUrl: a plain HTTP PUT (here with undici); the URL is its own credential, so no API key goes there`);
      steps++;
      out(`${bold(`PUT <uploadUrl>`)}  (${PNG_1x1.length} bytes, Content-Type: image/png)\n`);
      const { request } = await import('undici');
      const put = await request(asset.uploadUrl, { method: 'PUT', body: PNG_1x1, headers: { 'content-type': 'image/png' }, signal: ctx.signal });
      const putBody = await put.body.text();
      out(`${put.statusCode} ${putBody}\n`);
      if (put.statusCode !== 200) fail(`the upload PUT answered ${put.statusCode}`);
      else {
        say('Finalize: the service checks what landed (type, size, dimensions)');
        await adops(['api', 'POST', `/assets/${asset.id}/finalize`, '-o', 'table', '--fields', 'id,state,kind,mimeType,width,height,sizeBytes'], 0, (r) =>
          /ready/.test(r.stdout) ? undefined : 'the Asset is not ready',
        );
      }

      say('Destructive commands ask first on a terminal and need --yes elsewhere (this step runs without one)');
      await adops(['assets', 'delete', asset.id], EXIT.usage, (r) => (/--yes/.test(r.text) ? undefined : 'no mention of --yes'));
      say('…so nothing was deleted');
      await adops(['assets', 'get', asset.id, '--fields', 'id,filename,state'], 0);
      say('With --yes it is deleted, and a read answers 404 (exit 4)');
      await adops(['assets', 'delete', asset.id, '--yes'], 0, (r) => (/deleted/.test(r.stdout) ? undefined : 'no "deleted" in the answer'));
      await adops(['assets', 'get', asset.id], EXIT.notFound);
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
