// The tour of `adops demo`: which steps it runs, in order, and what each must
// show. Each part is a short story told with the step runner (./steps.ts); a
// part that needs what an earlier step printed (a campaign id, an Asset id)
// reads it from that step's result.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CommandContext } from '../../cli/context.js';
import { EXIT } from '../../cli/exit-codes.js';
import type { DEMO_LINE_ITEMS, DEMO_PLAN, startRaceRelay } from '../../sandbox/index.js';
import { otherWriterSetsVoice } from './race.js';
import type { StepRunner } from './steps.js';

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

/** What the tour runs against: the demo's sandbox (its module is loaded lazily by the command) and its scratch dir. */
export interface TourWorld {
  ctx: CommandContext;
  sandboxUrl: string;
  key: string;
  /** The demo's temporary directory (the image it uploads is written there). */
  scratch: string;
  plan: typeof DEMO_PLAN;
  lineItems: typeof DEMO_LINE_ITEMS;
  startRaceRelay: typeof startRaceRelay;
}

/** The JSON a step printed, or undefined. */
function jsonOf(text: string): unknown {
  try {
    const parsed: unknown = JSON.parse(text);
    return parsed;
  } catch {
    return undefined;
  }
}

const cellsOf = (line: string) =>
  line
    .split('│')
    .slice(1, -1)
    .map((c) => c.trim());

/** Rows of a table printed by adops (cli-table3, box characters), keyed by the header's column names. */
export function parseTable(text: string): Array<Record<string, string>> {
  const [head, ...rows] = text.split('\n').filter((l) => l.startsWith('│'));
  if (!head) return [];
  const names = cellsOf(head);
  return rows.map((r) => Object.fromEntries(cellsOf(r).map((c, i) => [names[i] ?? String(i), c])));
}

/** The field → value rows of one object printed by adops as a table. */
function fieldsOf(text: string): Record<string, string> {
  const rows = text.split('\n').filter((l) => l.startsWith('│'));
  return Object.fromEntries(rows.map((l): [string, string] => [cellsOf(l)[0] ?? '', cellsOf(l)[1] ?? '']));
}

export async function tour(t: StepRunner, world: TourWorld): Promise<void> {
  await firstReads(t);
  await budgetChange(t);
  await reports(t, world);
  await fixLoop(t, world);
  await revisionSafeEdit(t, world);
  await assetUpload(t, world);
}

async function firstReads(t: StepRunner): Promise<void> {
  t.say('Tables for people (a pipe gets JSON by default); this writes the temporary config only');
  await t.adops(['config', 'set', 'output', 'table']);

  t.say('Is everything set up? doctor checks config, key, reachability, subscription and permissions');
  await t.adops(['doctor']);

  t.say('The stored copy of every connected provider, newest first');
  await t.adops(['observe', 'campaigns', '--limit', '5'], 0, (r) => (/provider_[a-g]/.test(r.stdout) ? undefined : 'no campaign rows'));

  t.say('A live read asks the provider itself (counts against its rate limits)');
  await t.adops(['observe', 'campaigns', '--live', DEMO_ADVERTISER, '--limit', '3', '--fields', 'id,name,status,budget,currency'], 0, (r) =>
    parseTable(r.stdout).length > 0 ? undefined : 'no campaign rows',
  );

  t.say('When something fails you get the reason, a hint and an exit code: provider_a cannot filter live reads by status');
  await t.adops(['observe', 'campaigns', '--live', DEMO_ADVERTISER, '--status', 'PAUSED'], EXIT.refused, (r) =>
    r.text.includes('live_read_unsupported') ? undefined : 'no live_read_unsupported error',
  );
}

async function budgetChange(t: StepRunner): Promise<void> {
  t.say('A budget change. First pick a campaign that holds its own budget (--query is JMESPath over the rows)');
  const found = await t.adops(
    ['observe', 'campaigns', '--advertiser', DEMO_ADVERTISER, '--query', "[?budgetLevel=='campaign'] | [0].id", '-o', 'json'],
    0,
    (r) => (typeof jsonOf(r.stdout) === 'string' ? undefined : 'no campaign with a campaign-level budget'),
  );
  const picked = found ? jsonOf(found.stdout) : undefined;
  if (typeof picked !== 'string') {
    t.fail('skipped the budget change: no campaign with a campaign-level budget was found');
    return;
  }
  const campaign = picked;
  t.say(`Set its daily budget to 75: the change is started once (Idempotency-Key) and --wait follows it to the end`);
  const budget = ['--campaign', campaign, '--amount', '75', '--type', 'daily', '--wait', '--interval', '0.5', '--fields', 'id,action,target,changes,state'];
  await t.adops(['mutations', 'budget', DEMO_ADVERTISER, ...budget], 0, (r) => (/succeeded/.test(r.stdout) ? undefined : 'the mutation did not succeed'));
  t.say('The live read shows the new budget at the provider');
  await t.adops(['observe', 'campaigns', '--live', DEMO_ADVERTISER, '--ids', campaign, '--fields', 'id,name,budget,budgetType'], 0, (r) =>
    parseTable(r.stdout).some((row) => row.id === campaign && /^75\.00\b/.test(row.budget ?? '') && row.budgetType === 'daily')
      ? undefined
      : 'the live read does not show a daily budget of 75.00',
  );
}

async function reports(t: StepRunner, world: TourWorld): Promise<void> {
  const onTerminal = world.ctx.io.stdoutIsTTY && world.ctx.io.stderrIsTTY;
  t.say(
    onTerminal
      ? 'Performance by ISO week; --chart draws spend under the table on a terminal (this step writes straight to yours)'
      : 'Performance by ISO week. --chart draws under the table on a terminal only: this transcript is not one, so adops says so and prints the table',
  );
  await t.adops(
    ['observe', 'insights', '--since', INSIGHTS_SINCE, '--until', INSIGHTS_UNTIL, '--grain', 'week', '--advertiser', DEMO_ADVERTISER, '--chart', 'spend'],
    0,
    onTerminal
      ? undefined
      : (r) => (/│ dateStart\s+│ dateStop\s+│/.test(r.stdout) && r.stdout.includes(DEMO_ADVERTISER) ? undefined : `no weekly rows for ${DEMO_ADVERTISER}`),
    { terminal: onTerminal },
  );

  const plan = world.plan.slug;
  t.say(
    `Is what runs what was planned? The demo's approved plan ${plan} recorded the campaigns its Line Items launched; ` +
      'plans verify reads them live (one ids= list per advertiser) and compares status, budget and objective: no rows, in sync',
  );
  await t.adops(['plans', 'verify', plan, '--exit-code'], 0, (r) => (/in sync/.test(r.text) ? undefined : 'the demo plan is not in sync'));
  t.say(
    `Is it pacing? Spend to date from Insights against the plan, as of ${INSIGHTS_UNTIL} (the last day with Insights); ` +
      '--exit-code exits 11 because one Line Item paces outside the 90–110 % band (--chart draws it on a terminal)',
  );
  await t.adops(['plans', 'pacing', plan, '--as-of', INSIGHTS_UNTIL, '--exit-code'], EXIT.findings, (r) => {
    const rows = parseTable(r.stdout);
    const inBand = (id: string) => rows.find((row) => row.lineItemId === id)?.inBand;
    return inBand(world.lineItems.retargeting) === 'true' && inBand(world.lineItems.prospecting) === 'false'
      ? undefined
      : 'expected Retargeting on pace and Prospecting under it';
  });
}

/** The targets and amounts of a change file the tour wrote (CSV: a header, then one change a line). */
function changesIn(path: string): Array<{ id: string; amount: string }> {
  if (!existsSync(path)) return [];
  const [head, ...lines] = readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .filter((l) => l !== '' && !l.startsWith('#'));
  const cols = (head ?? '').split(',');
  return lines.map((l) => {
    const cells = l.split(',');
    return { id: cells[cols.indexOf('targetId')] ?? '', amount: cells[cols.indexOf('amount')] ?? '' };
  });
}

/** Live budgets of campaigns, by id, as a table prints them. */
const budgetsShown = (stdout: string) => new Map(parseTable(stdout).map((row) => [row.id ?? '', row.budget ?? '']));

/** Finding → proposed change file → preview against live → apply with the way back → undo (#36). */
async function fixLoop(t: StepRunner, world: TourWorld): Promise<void> {
  const budgets = join(world.scratch, 'budgets.csv');
  const undo = join(world.scratch, 'undo.csv');
  t.say(
    'From the finding to a fix: --suggest writes a change file of the daily budgets that would make the Line Item outside the band ' +
      'spend its planned total by the end of its flight (what is left to spend over the days left, split over its running campaigns)',
  );
  await t.adops(['plans', 'pacing', world.plan.slug, '--as-of', INSIGHTS_UNTIL, '--suggest', budgets], 0, () =>
    changesIn(budgets).length > 0 ? undefined : 'no change file with a row was written',
  );
  const targets = changesIn(budgets);
  if (targets.length === 0) return;
  const ids = targets.map((c) => c.id).join(',');
  const liveBudgets = ['observe', 'campaigns', '--live', world.plan.advertiserId, '--ids', ids, '--fields', 'id,name,budget,budgetType'];
  const before = await t.adops(liveBudgets, 0);

  t.say('What would it change? --preview reads every target live and shows current and new values; it sends nothing');
  await t.adops(['mutations', 'apply', budgets, '--preview'], 0, (r) =>
    parseTable(r.stdout).some((row) => row.effect === 'change') ? undefined : 'the preview shows no change',
  );
  t.say('Apply it with --undo-file: the budgets as they are now are written (and synced) as a change file before the first change goes out');
  await t.adops(['mutations', 'apply', budgets, '--undo-file', undo, '--wait', '--interval', '0.5'], 0, () =>
    changesIn(undo).length === targets.length ? undefined : 'the undo file does not hold one row per change',
  );
  t.say('The live budgets are the suggested ones');
  await t.adops(liveBudgets, 0, (r) => {
    const now = budgetsShown(r.stdout);
    return targets.every((c) => (now.get(c.id) ?? '').startsWith(Number(c.amount).toFixed(2))) ? undefined : 'a live budget is not the suggested one';
  });
  t.say('Changed your mind? The undo file is itself a change file: applying it puts every budget back');
  await t.adops(['mutations', 'apply', undo, '--wait', '--interval', '0.5'], 0);
  await t.adops(liveBudgets, 0, (r) => {
    const was = before ? budgetsShown(before.stdout) : new Map<string, string>();
    const now = budgetsShown(r.stdout);
    return targets.every((c) => now.get(c.id) !== undefined && now.get(c.id) === was.get(c.id)) ? undefined : 'live is not what it was before';
  });
}

async function revisionSafeEdit(t: StepRunner, world: TourWorld): Promise<void> {
  t.say(`A revision-safe edit: create a brand, then change its description while someone else changes its voice`);
  await t.adops(['brands', 'create', '--slug', DEMO_BRAND, '--name', 'Demo Outdoor', '--description', 'Gear'], 0, (r) =>
    /│ revision\s+│ 1\s+│/.test(r.stdout) ? undefined : 'the brand was not created at revision 1',
  );
  const relay = await world.startRaceRelay(world.sandboxUrl, `/context/brands/${DEMO_BRAND}`, async () => {
    // The other writer: reads the brand and sets its voice at that revision, after adops read it and before adops writes.
    const revision = await otherWriterSetsVoice(world.ctx, world.sandboxUrl, world.key, DEMO_BRAND, THEIR_VOICE);
    t.out(t.dim(`# (meanwhile another writer set the voice: brand ${DEMO_BRAND} is now at revision ${String(revision)})`) + '\n');
  });
  try {
    t.say(
      `For this step ADOPS_BASE_URL is a loopback relay in the demo: after adops reads the brand, the other writer changes the voice through the API, ` +
        `so adops's write meets 409 revision_mismatch; it reads again, sees only the voice changed, and re-applies the description`,
    );
    await t.adops(
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
  t.say('Both changes are there: their voice and your description');
  await t.adops(['brands', 'get', DEMO_BRAND, '--fields', 'slug,name,description,voice,revision'], 0, (r) => {
    const row = fieldsOf(r.stdout);
    return row.description === OUR_DESCRIPTION && row.voice === THEIR_VOICE ? undefined : 'the brand does not hold both changes';
  });
}

async function assetUpload(t: StepRunner, world: TourWorld): Promise<void> {
  t.say(
    'Upload an image: adops reserves an Asset, sends the bytes to its upload URL (without the API key), finalizes, and registers it; progress goes to stderr',
  );
  const png = join(world.scratch, 'demo-logo.png');
  writeFileSync(png, PNG_1x1);
  const uploaded = await t.adops(['assets', 'upload', png, '--register', DEMO_ADVERTISER], 0, (r) =>
    parseTable(r.stdout).some((row) => row.state === 'ready' && /^ast_/.test(row.id ?? '')) ? undefined : 'the Asset is not ready',
  );
  const asset = uploaded ? parseTable(uploaded.stdout).find((row) => row.state === 'ready')?.id : undefined;
  if (!asset) return;

  t.say(`The Asset as the service holds it: the type, size and dimensions it read from the bytes, and its registration to ${DEMO_ADVERTISER}`);
  await t.adops(['assets', 'get', asset, '--fields', 'id,filename,state,kind,mimeType,sizeBytes,width,height,registrations'], 0, (r) => {
    if (!/│ state\s+│ ready\s+│/.test(r.stdout)) return 'the Asset is not ready';
    return new RegExp(`│ registrations\\.0\\.advertiserId\\s+│ ${DEMO_ADVERTISER}\\s+│`).test(r.stdout)
      ? undefined
      : `the Asset is not registered to ${DEMO_ADVERTISER}`;
  });

  t.say('Destructive commands ask first on a terminal and need --yes elsewhere (this step runs without one)');
  await t.adops(['assets', 'delete', asset], EXIT.usage, (r) => (/--yes/.test(r.text) ? undefined : 'no mention of --yes'));
  t.say('…so nothing was deleted');
  await t.adops(['assets', 'get', asset, '--fields', 'id,filename,state'], 0);
  t.say('With --yes it is deleted, and a read answers 404 (exit 4)');
  await t.adops(['assets', 'delete', asset, '--yes'], 0, (r) => (/deleted/.test(r.stdout) ? undefined : 'no "deleted" in the answer'));
  await t.adops(['assets', 'get', asset], EXIT.notFound);
}
