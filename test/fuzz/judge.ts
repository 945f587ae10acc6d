// The invariants every fuzz run is held to, whatever the service answered:
// - it ends, within the bound and the request budget, with an exit code the command documents;
// - it never calls a service's answer "a bug in adops";
// - it never says a verdict (exit 0 of a flow; "in sync", "in band", --exit-code 0 of a check) that rests
//   on an answer breaking the contract where the verdict reads it; a check turns such an answer into a row
//   "not comparable: …" or fails (unexpected_answer, exit 1);
// - a change file it proposes (--fix, --suggest) holds no change of an entity whose answer broke the
//   contract where the proposal reads it;
// - stdout is valid in its format (JSON, NDJSON and CSV parse; a markdown table has one row per line);
// - no escape sequence and no form of the key in any output, step summary or local file; the key goes to
//   the service only, never to the storage an upload URL names.
import { parse as parseCsv } from 'csv-parse/sync';
import { COMMON_EXITS } from '../../src/cli/exit-codes.js';
import { OPERATION_SCHEMAS } from '../../src/contract/operation-schemas.js';
import { ANSWER_VIEWS, parseRead } from '../../src/contract/answer-views.js';
import { JUDGED, PROPOSES, type Judged } from './cases.js';
import { workflowCommands } from '../helpers/workflow-commands.js';
import { FUZZ_KEY, keyFormsIn } from './key.js';
import { SEMANTIC, strikes, type Mutation, type MutationKind } from './mutations.js';
import type { Served, SeenRequest } from './stand-in.js';

export interface RunFacts {
  command: string;
  argv: readonly string[];
  code: number | null;
  stdout: string;
  stderr: string;
  /** --output as given (undefined: the default off a terminal). */
  format: string | undefined;
  served: readonly Served[];
  requests: readonly SeenRequest[];
  overBudget: boolean;
  /** Exit codes the command documents besides the common ones. */
  documented: readonly number[];
  /** Local files the run wrote (config dir, step summary): path → text. */
  files: ReadonlyMap<string, string>;
  /** The step summary's text, when the run was in GitHub Actions. */
  summary?: string;
  /** How much the heap grew over the run (bytes; garbage included). */
  heapGrowth?: number;
  /** Calls to the run's clock after the command returned (a worker or a poll of it still going). */
  clockAfterEnd?: number;
}

/** What one run may print and hold: a few pages of a few rows each, even with 200 KB messages, stay far under. */
const OUTPUT_LIMIT = 16 * 1024 * 1024;
const HEAP_LIMIT = 256 * 1024 * 1024;

/** Raw control characters a terminal acts on (a JSON `\u001b` escape is text, not one). Tab and line breaks are layout. */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
/** GitHub's step summary limit per step. */
const SUMMARY_LIMIT = 1024 * 1024;

/** What a repeated row or one not asked for breaks: a check's count per id, never a flow's "is it there". */
const ROW_SET: ReadonlySet<MutationKind> = new Set(['duplicateRow', 'rowNotAsked']);

/** Whether a served answer is broken where one of `views` reads it (or broken as a page or a body at all). */
export function brokenFor(s: Served, judged: Judged, argv: readonly string[] = []): Mutation | undefined {
  if (!s.mutation || !s.op || s.status >= 300 || s.superseded) return undefined;
  const reading = judged.views.filter((v) => ANSWER_VIEWS[v].op === s.op);
  if (reading.length === 0) return undefined;
  const m = s.mutation;
  if (ROW_SET.has(m.kind) && judged.verdict === 'exit0') return undefined;
  if (m.kind === 'rowNotAsked' && judged.ignoresRowsNotAsked) return undefined;
  if (SEMANTIC.has(m.kind)) return m;

  // A field mutation breaks the contract only where the schema says so (a null where null is allowed is not one).
  const schema = OPERATION_SCHEMAS[s.op].response;
  if (s.body !== undefined && schema.safeParse(s.body).success) return undefined;
  for (const v of reading) {
    const narrowed = judged.narrow?.(argv, v);
    for (const read of ANSWER_VIEWS[v].reads) {
      const { optional } = parseRead(read);
      const path = read.replace(/\?$/, '');
      if (narrowed && !narrowed.includes(path)) continue;
      if (optional && m.kind === 'remove' && m.at === path) continue;
      if (strikes(m.at, path)) return m;
    }
  }
  return undefined;
}

function formatProblem(format: string | undefined, stdout: string): string | undefined {
  if (stdout.trim() === '') return undefined;
  try {
    if (format === 'json') JSON.parse(stdout);
    else if (format === 'ndjson') for (const line of stdout.split('\n').filter(Boolean)) JSON.parse(line);
    else if (format === 'csv') parseCsv(stdout, { relax_column_count: false });
    else if (format === 'markdown') {
      const lines = stdout.split('\n');
      const table = lines.filter((l) => l.startsWith('|'));
      const bad = table.find((l) => !l.endsWith('|'));
      if (bad !== undefined) return `a markdown table row does not end its line: ${JSON.stringify(bad.slice(0, 80))}`;
    }
  } catch (err) {
    return `stdout is not valid ${format}: ${err instanceof Error ? err.message.slice(0, 200) : String(err)}`;
  }
  return undefined;
}

const shown = (s: string) => JSON.stringify(s.length > 300 ? `${s.slice(0, 300)}…` : s);

/** Every invariant the run breaks, in words (empty: it held them all). */
export function judge(r: RunFacts): string[] {
  const out: string[] = [];
  if (r.overBudget) out.push(`sent more than the request budget: a walk went on without progress (${r.requests.length} requests)`);
  if (r.code === null) out.push('did not end within its bound');
  else if (!COMMON_EXITS.some((c) => c === r.code) && !r.documented.includes(r.code))
    out.push(`exit ${r.code} is not one the command documents (${[...COMMON_EXITS, ...r.documented].join(', ')})`);
  const printed = r.stdout.length + r.stderr.length;
  if (printed > OUTPUT_LIMIT) out.push(`printed ${printed} characters: output out of proportion to what the service sent`);
  if ((r.heapGrowth ?? 0) > HEAP_LIMIT) out.push(`the heap grew by ${Math.round((r.heapGrowth ?? 0) / 1048576)} MiB over one run: memory not bounded`);
  if (r.clockAfterEnd)
    out.push(`went on after it returned: its clock was read or slept on ${r.clockAfterEnd} time(s) after the command ended (a worker or poll not stopped)`);
  if (/bug in adops/i.test(r.stderr)) out.push(`called the service's answer a bug in adops: ${shown(r.stderr)}`);

  const judged = JUDGED[r.command];
  const judging = judged && (r.command !== 'mutations get' || r.argv.includes('--wait'));
  if (judged && judging && r.code !== null) {
    const broken = r.served.map((s) => [s, brokenFor(s, judged, r.argv)] as const).filter(([, m]) => m !== undefined);
    if (broken.length > 0) {
      const what = broken.map(([s, m]) => `${s.op} ${m!.kind} at ${m!.at || '(whole)'}`).join('; ');
      if (judged.verdict === 'exit0' && r.code === 0) out.push(`exit 0 on a broken answer its verdict reads: ${what}`);
      if (judged.verdict === 'check') {
        if (judged.phrase?.test(r.stderr)) out.push(`said ${judged.phrase.source} on a broken answer it judged: ${what}`);
        if (r.argv.includes('--exit-code') && r.code === 0) out.push(`--exit-code 0 on a broken answer it judged: ${what}`);
        // Never silence: a broken row it judged is "not comparable", or at least a row of its own (drift's "exists").
        const spoken = broken.every(([, m]) => /not comparable/.test(r.stdout) || (m!.subject !== undefined && r.stdout.includes(m!.subject)));
        if ((r.code === 0 || r.code === 11) && !spoken) out.push(`a broken answer it judged became no row "not comparable": ${what}`);
      }
    }
  }

  out.push(...proposalProblems(r));

  const problem = r.code === 0 ? formatProblem(r.format, r.stdout) : undefined;
  if (problem) out.push(problem);
  const sinks: Array<[string, string]> = [['stdout', r.stdout], ['stderr', r.stderr], ...[...r.files].map(([f, t]): [string, string] => [f, t])];
  for (const [where, text] of sinks) {
    const forms = keyFormsIn(text);
    if (forms.length) out.push(`a form of the key in ${where}: ${forms.map((f) => JSON.stringify(f)).join(', ')}`);
    const control = CONTROL.exec(text);
    if (control)
      out.push(
        `a control character (U+${control[0].charCodeAt(0).toString(16).padStart(4, '0')}) in ${where}: ${shown(text.slice(Math.max(0, control.index - 40), control.index + 40))}`,
      );
    // A CI log reads stdout and stderr for workflow commands (`::error …::`, `##[…]`): outside text, or parts of it
    // meeting where adops joins them, must not make one.
    if (where === 'stdout' || where === 'stderr') for (const c of workflowCommands(text)) out.push(`a workflow command in ${where}: ${shown(c)}`);
  }
  if (r.summary !== undefined) {
    if (Buffer.byteLength(r.summary) > SUMMARY_LIMIT) out.push(`the step summary is ${Buffer.byteLength(r.summary)} bytes, over GitHub's 1 MiB`);
    const lines = r.summary.split('\n');
    const bad = lines.find((l, i) => l.startsWith('|') && !l.endsWith('|') && i < lines.length - 1);
    if (bad !== undefined) out.push(`a step summary table row does not end its line: ${shown(bad)}`);
  }
  for (const q of r.requests) {
    if (q.origin === 'storage' && q.authorization !== undefined)
      out.push(`sent an Authorization header to the storage an upload URL names (${q.method} ${q.path})`);
    if (q.origin === 'api' && q.authorization !== undefined && q.authorization !== `Bearer ${FUZZ_KEY}`)
      out.push('sent the service an Authorization that is not its key');
  }
  return out;
}

/** A change file the run wrote: no change targets the row an answer it read broke (that row is listed, never proposed). */
function proposalProblems(r: RunFacts): string[] {
  const proposes = PROPOSES[r.command];
  const at = proposes ? r.argv.indexOf(proposes.flag) + 1 : 0;
  const text = at > 0 ? r.files.get(r.argv[at] ?? '') : undefined;
  if (!proposes || text === undefined) return [];
  const judged: Judged = { views: proposes.views, verdict: 'check', ignoresRowsNotAsked: true };
  const subjects = new Set(r.served.flatMap((s) => brokenFor(s, judged, r.argv)?.subject ?? []));
  const targets = text.split('\n').flatMap((line) => {
    if (line.startsWith('{')) return [JSON.stringify(Reflect.get(JSON.parse(line), 'target'))];
    return line === '' ? [] : [line.split(',')[3] ?? ''];
  });
  return targets
    .filter((t) => subjects.has(t) || [...subjects].some((id) => t.includes(JSON.stringify(id))))
    .map((t) => `proposed a change of ${t}, whose answer broke the contract where the proposal reads it`);
}
