// What the fuzzer runs: every command of the registry that calls an operation
// (its operationId, alternates or flowOperations), each with the command
// lines its own --help promises (its `examples`), run against the stand-in.
// A new command inherits the attack the day it is written: its examples are
// its cases, and the test that walks the registry fails for a command that
// calls an operation and has none. The files the examples name (hero.jpg,
// changes.csv, spring-sale.json, ./creatives, …) are made in the run's folder.
//
// The judgements (JUDGED): which answers each verdict of a command rests on
// (the views of src/contract/answer-views.ts its flow reads) and how the
// verdict is said: exit 0 itself for a flow (started, sent, ready, valid,
// saved), or a note and `--exit-code` for a check ("in sync", "in band").
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { AnswerViewName } from '../../src/contract/answer-views.js';
import type { CommandSpec, CommandTree } from '../../src/cli/registry.js';
import { MUTATION_ACTIONS } from '../../src/contract/mutation-actions.js';
import { mp4, png } from '../unit/uploads/media-samples.js';

export interface FuzzCase {
  /** The command's path, joined: 'plans verify'. */
  command: string;
  /** The arguments after `adops`. */
  argv: string[];
  /** What stdin holds (an example piping a file in: `cat plan.json | adops plans apply -`). */
  stdin?: string;
  destructive: boolean;
}

/** A command whose examples cannot run here, and why (each still counted as covered elsewhere, by name). */
export const NOT_RUN: Readonly<Record<string, string>> = {};

/** The files the examples name, made in the run's folder: media that sniffs right, a change file, a plan file. */
export function writeFixtures(dir: string): Array<{ filename: string; sizeBytes: number; sha256: string }> {
  const files: Record<string, Buffer | string> = {
    'hero.jpg': png(64, 64),
    'spring.png': png(32, 32),
    'hero.mp4': mp4(),
    'brand-book.pdf': '%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n',
    'creatives/a.png': png(16, 16),
    'creatives/b.png': png(17, 16),
    'creatives/.hidden.png': png(8, 8),
    'references/brief.md': '# Brief\nplain words\n',
    'shoot/day1/clip.mp4': mp4(),
    'changes.csv':
      'advertiserId,action,targetType,targetId,amount,name\nacc_123,pause,campaign,456,,\nacc_123,set_budget,campaign,457,50,\nacc_123,rename,ad_group,789,,Spring\n',
    'changes.ndjson':
      '{"advertiserId":"acc_123","action":"pause","target":{"type":"campaign","id":"456"}}\n{"advertiserId":"acc_123","action":"activate","target":{"type":"ad_group","id":"789"}}\n',
    'change.json': '{"advertiserId":"acc_123","action":"pause","target":{"type":"campaign","id":"456"}}\n',
    'spring-sale.json': JSON.stringify({
      slug: 'spring-sale',
      name: 'Spring',
      currency: 'EUR',
      lineItems: [{ name: 'Search', budget: 100 }, { name: 'Social' }],
    }),
    'plan.json': JSON.stringify({ slug: 'spring-sale', name: 'Spring', currency: 'EUR', budget: 2500 }),
    'pacing.md': '# Pacing\nSpend evenly.\n',
    'voice.md': 'Plain and warm.\n',
    'guidelines.md': 'No superlatives.\n',
    'hiker.md': 'Hikes on weekends.\n',
  };
  const out: Array<{ filename: string; sizeBytes: number; sha256: string }> = [];
  for (const [name, content] of Object.entries(files)) {
    const file = join(dir, name);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, content);
    const bytes = Buffer.from(content);
    out.push({ filename: name.split('/').pop()!, sizeBytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') });
  }
  return out;
}

/** An example's words as a shell would split them (quotes kept together), up to a redirect or a pipe out. */
export function exampleArgv(example: string): { argv: string[]; stdin?: string } | undefined {
  const words: string[] = [];
  for (const m of example.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) words.push(m[1] ?? m[2] ?? m[3]!);
  let stdinFile: string | undefined;
  const pipeIn = words.indexOf('|');
  if (words[0] === 'cat' && pipeIn > 0) {
    stdinFile = words[1];
    words.splice(0, pipeIn + 1);
  }
  while (words.length && /^[A-Z_]+=/.test(words[0]!)) words.shift();
  if (words[0] !== 'adops') return undefined;
  const end = words.findIndex((w) => ['>', '|', '||', '&&', '2>', ';'].includes(w));
  const argv = words.slice(1, end === -1 ? undefined : end);
  return stdinFile ? { argv, stdin: stdinFile } : { argv };
}

/** Whether a command calls the service: its operation, an alternate (`--live`), or a flow's operations. */
export const callsService = (c: CommandSpec): boolean => c.operationId !== undefined || (c.alternates?.length ?? 0) > 0 || (c.flowOperations?.length ?? 0) > 0;

/** Every command that calls an operation, each with the cases its examples give. */
export function casesOf(tree: CommandTree): Map<string, FuzzCase[]> {
  const out = new Map<string, FuzzCase[]>();
  for (const c of tree.commands) {
    if (!callsService(c)) continue;
    const command = c.path.join(' ');
    const cases: FuzzCase[] = [];
    for (const example of c.examples ?? []) {
      const parsed = exampleArgv(example);
      if (!parsed || parsed.argv.slice(0, c.path.length).join(' ') !== command) continue;
      cases.push({ command, argv: parsed.argv, ...(parsed.stdin ? { stdin: parsed.stdin } : {}), destructive: c.destructive === true });
    }
    out.set(command, cases);
  }
  return out;
}

/** How a command says its verdict: `exit0` (a flow: exit 0 is "done as asked"), or `check` (a note, and 0 under --exit-code). */
export interface Judged {
  views: readonly AnswerViewName[];
  verdict: 'exit0' | 'check';
  /** A check's words for "nothing found" (stderr); a check must say "not comparable" for a broken row it judged. */
  phrase?: RegExp;
  /** A lookup by ids: a row of an id not asked for counts for nothing (verify, drift); else it breaks the verdict. */
  ignoresRowsNotAsked?: boolean;
  /** The read paths a run's own flags narrow the verdict to (drift's --compare), when they do. */
  narrow?: (argv: readonly string[], view: AnswerViewName) => readonly string[] | undefined;
}

/**
 * The commands that write a change file (--fix, --suggest), and every answer a proposal reads: the
 * file must hold no change of an entity whose answer broke the contract (judge.ts), and the runs aim at
 * these reads too (a proposal reads live what the check alone does not: pacing's --suggest).
 */
export const PROPOSES: Readonly<Record<string, { flag: string; views: readonly AnswerViewName[] }>> = {
  'plans verify': {
    flag: '--fix',
    views: ['planVerified', 'liveCampaignsVerified', 'liveAdGroupsVerified', 'liveAdsVerified', 'liveCreativesVerified', 'liveAssetGroupsVerified'],
  },
  'plans pacing': { flag: '--suggest', views: ['planPaced', 'adGroupParents', 'adParents', 'spendByDay', 'liveCampaignsVerified', 'liveAdGroupsVerified'] },
};

const MUTATION_VIEWS = ['mutationStarted', 'mutationPolled'] as const;
const ASSET_UPLOAD_VIEWS = ['assetReserved', 'assetFinalized', 'assetRead'] as const;

/** The commands that judge, and the answers their verdict rests on. Any other command is a display (tolerant reader). */
export const JUDGED: Readonly<Record<string, Judged>> = {
  'plans verify': {
    views: ['planVerified', 'liveCampaignsVerified', 'liveAdGroupsVerified', 'liveAdsVerified', 'liveCreativesVerified', 'liveAssetGroupsVerified'],
    verdict: 'check',
    phrase: /in sync/,
    ignoresRowsNotAsked: true,
  },
  'plans pacing': { views: ['planPaced', 'adGroupParents', 'adParents', 'spendByDay'], verdict: 'check', phrase: /in band|on pace/ },
  'observe drift': {
    views: ['storedCampaignsDrift', 'liveCampaignsDrift', 'storedAdGroupsDrift', 'liveAdGroupsDrift'],
    verdict: 'check',
    phrase: /in sync|no drift/,
    ignoresRowsNotAsked: true,
    // --compare status,budget: what is compared, and what a row is matched by (its id; live, its provider too).
    narrow: (argv, view) => {
      const i = argv.indexOf('--compare');
      const matched = view.startsWith('live') ? ['data[].id', 'data[].provider'] : ['data[].id'];
      return i === -1 ? undefined : [...matched, ...(argv[i + 1] ?? '').split(',').map((f) => `data[].${f.trim()}`)];
    },
  },
  'mutations start': { views: MUTATION_VIEWS, verdict: 'exit0' },
  'mutations watch': { views: ['mutationPolled'], verdict: 'exit0' },
  'mutations get': { views: ['mutationPolled'], verdict: 'exit0' },
  'mutations apply': { views: MUTATION_VIEWS, verdict: 'exit0' },
  ...Object.fromEntries(
    // The named command of every action (its verb is the action's entry's).
    Object.values(MUTATION_ACTIONS).map(({ verb }) => [`mutations ${verb}`, { views: MUTATION_VIEWS, verdict: 'exit0' }]),
  ),
  'assets upload': { views: ASSET_UPLOAD_VIEWS, verdict: 'exit0' },
  'assets sync': { views: ['assetsListed', ...ASSET_UPLOAD_VIEWS], verdict: 'exit0' },
  'brands documents upload': { views: ['documentReserved', 'documentFinalized', 'documentRead'], verdict: 'exit0' },
  // (planLeftover is read only after an interrupted run, whose marker a fuzz run's fresh config dir never holds;
  // the plan read after the apply is the result shown, a display.)
  'plans apply': { views: ['planCreated', 'lineItemAdded'], verdict: 'exit0' },
  'plans approve': { views: ['planToApprove'], verdict: 'exit0' },
  'plans line-items validate': { views: ['validation'], verdict: 'exit0' },
  'plans line-items readiness': { views: ['readiness'], verdict: 'exit0' },
  'skills update': { views: ['skillRevision', 'skillUpdated'], verdict: 'exit0' },
  'brands update': { views: ['brandRevision', 'brandUpdated'], verdict: 'exit0' },
  'brands personas update': { views: ['personaRevision', 'personaUpdated'], verdict: 'exit0' },
  'plans update': { views: ['planRevision', 'planUpdated'], verdict: 'exit0' },
  'plans line-items update': { views: ['lineItemRevision', 'lineItemUpdated'], verdict: 'exit0' },
  'assets rename': { views: ['assetRevision', 'assetRenamed'], verdict: 'exit0' },
};
