// Definitions (data only) of the observe group: per resource a group whose
// default verb `list` reads the stored copy, or live from the provider with
// --live ACC, and `get ACC ID` reads one entity live; and insights.
import { command } from '../../cli/command-input.js';
import type { CommandSpec, GroupSpec } from '../../cli/registry.js';
import { RESOURCES, resourceEntries, type ObserveSpec, type ResourceName } from '../../contract/resources.js';
import { operationCommand } from '../_shared/operation-command.js';
import { EXIT } from '../../cli/exit-codes.js';

/** An Observe entity as its commands need it: its noun's name and words, and its `observe` block. */
interface ObserveNoun extends ObserveSpec {
  resource: ResourceName;
  /** The singular, for help: 'ad group'. */
  one: string;
}

/** The Observe entities, in the resources module's order: each noun that declares an `observe` block (src/contract/resources.ts). */
const NOUNS: readonly ObserveNoun[] = resourceEntries().flatMap(([resource, r]) => (r.observe ? [{ ...r.observe, resource, one: r.noun }] : []));

/** What `observe drift` compares (its levels, flows/drift.ts): campaigns and ad groups. */
const DRIFT_NOUNS = [RESOURCES.campaign.observe, RESOURCES.adGroup.observe] as const;

const resourceGroup = (r: ObserveNoun): GroupSpec => ({
  path: ['observe', r.word],
  description: `${r.plural[0]!.toUpperCase()}${r.plural.slice(1)}: list (the default verb; stored, or --live) and get (live)`,
  defaultCommand: 'list',
});

export const observeGroups: GroupSpec[] = NOUNS.map(resourceGroup);

// Pure for bundlers: the stored reads' bundle, which takes observeResource only, leaves these definitions out.
export const observeCommands: CommandSpec[] = /* @__PURE__ */ allCommands();

function allCommands(): CommandSpec[] {
  return [
    command({
      path: ['observe', 'drift'],
      description: 'Where the stored copy lags the provider: stored and live reads of one advertiser compared by id, one row per difference',
      args: [{ name: 'advertiser', description: 'advertiser id (acc_…)', required: true }],
      options: [
        { flags: '--level <level>', description: 'what to compare', choices: [DRIFT_NOUNS[0].word, DRIFT_NOUNS[1].word], defaultValue: DRIFT_NOUNS[0].word },
        { flags: '--compare <fields>', description: 'compare only these fields (comma-separated; default all the stored copy carries)', type: 'list' },
        { flags: '--exit-code', description: 'exit 11 on any row (drift, or a row not comparable), 0 when in sync (as git diff --exit-code)' },
      ],
      notes:
        'Rows: id, name, field, stored, live. Fields compared: status, name, budget, budgetType, and bidStrategy of ad groups (the stored copy never carries a campaign\'s bidStrategy or any bidAmount). A row on one side only has field "exists". Every row read is checked against the contract first: a compared field that a row breaks (missing, mistyped, outside its enum) is a row for that field whose broken side says "not comparable: …"; two rows of one id in one answer, or a row whose id or provider cannot be read, is a row of field "id" (or "provider") saying so; rows of ids not asked count for nothing. Both sides are paged, never held whole. A live read the provider cannot answer (501) or a lost connection (409) fails with that code and prints no rows.',
      flowOperations: DRIFT_NOUNS.flatMap((o) => [o.live, o.stored]),
      exits: [EXIT.findings],
      load: () => import('./drift.js'),
      examples: [
        'adops observe drift acc_123',
        'adops observe drift acc_123 --level ad-groups --compare budget --output csv',
        'adops observe drift acc_123 --compare status --exit-code --output ndjson',
      ],
    }),
    operationCommand({
      path: ['observe', 'insights'],
      operationId: 'listInsights',
      description: 'Spend, impressions, clicks, reach and conversions over a date range (stored read)',
      flagNames: { timeGrain: 'grain' },
      resource: 'insight',
      extraOptions: [
        {
          flags: '--chart <metric>',
          description: 'on a terminal, draw this metric over time under the table',
          choices: ['spend', 'impressions', 'clicks', 'reach', 'conversions'],
        },
      ],
      load: () => import('./insights.js'),
      examples: [
        'adops observe insights --since 2026-09-01 --until 2026-09-30 --grain day --chart spend',
        'adops observe insights --since 2026-09-01 --until 2026-09-30 --level campaign --all --output csv > september.csv',
        'adops observe insights --since 2026-09-01 --until 2026-09-30 --breakdown provider',
      ],
    }),
    ...NOUNS.flatMap(resourceCommands),
  ];
}

/** One resource's commands: `list` (stored, or --live) and `get` (live). */
function resourceCommands(r: ObserveNoun): CommandSpec[] {
  return [
    operationCommand({
      path: ['observe', r.word, 'list'],
      operationId: r.stored,
      description: `List ${r.plural}: the stored copy, or live from the provider with --live`,
      alternate: {
        flag: 'live',
        operationId: r.live,
        param: 'advertiserId',
        description: 'read live from the provider for this advertiser (counts against its rate limits)',
      },
      resource: r.resource,
      load: () => import('./list.js'),
      extraOptions: [{ flags: '--fallback-stored', description: 'with --live: when the provider cannot read this live (501), read the stored copy instead' }],
      examples: [
        `adops observe ${r.word} --limit 20`,
        `adops observe ${r.word} list --all --output ndjson`,
        `adops observe ${r.word} --live acc_123 --status PAUSED`,
      ],
    }),
    operationCommand({
      path: ['observe', r.word, 'get'],
      operationId: r.get,
      description: `Read one ${r.one} live from the provider: its own payload, keys and units`,
      argNames: { advertiserId: 'advertiser', id: 'id' },
      resource: 'livePayload',
      examples: [`adops observe ${r.word} get acc_123 120330000000001`],
    }),
  ];
}

/**
 * The group and commands of one resource (`campaigns`), or undefined for another word: what the
 * stored reads' bundle (fast-read.ts) composes its registry of, so a read builds two definitions, not all of observe.
 */
export function observeResource(word: string | undefined): { group: GroupSpec; commands: CommandSpec[] } | undefined {
  const r = NOUNS.find((x) => x.word === word);
  return r ? { group: resourceGroup(r), commands: resourceCommands(r) } : undefined;
}
