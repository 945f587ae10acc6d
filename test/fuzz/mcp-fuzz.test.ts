// The contract fuzzer against `adops mcp` (#37 review): the same hostile stand-in
// service (wrong shapes, endless pages, the key echoed back in every form,
// strings with escapes, ESC and line breaks, failures with hostile bodies),
// reached through the MCP server's own tools/call (callTool: the gate, the
// tool, the runner that runs the command in process, the result's cleaning and
// cap), with the runner's --debug trace collected half the time. Each result is
// held to: no form of the key and no control character in the result (its
// text, and every string an agent decodes from it) or the trace; an error
// result carries an exit code the command documents and that code's meaning;
// a check never answers inSync / onPace on an answer broken where its verdict
// reads it; a run ends within its bound and request budget. `npm test` runs a
// fixed budget (RUNS per tool, a few seconds); FUZZ_RUNS/FUZZ_SEED as in
// contract-fuzz.test.ts.
import fc from 'fast-check';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMMON_EXITS } from '../../src/cli/exit-codes.js';
import { getRegistry } from '../../src/commands/index.js';
import { flowTools } from '../../src/mcp/flow-tools.js';
import { operationTools } from '../../src/mcp/operation-tools.js';
import { exitMeaning } from '../../src/mcp/result.js';
import { commandRunner } from '../../src/mcp/run-command.js';
import { callTool, type ServerSetup } from '../../src/mcp/server.js';
import type { CallResult } from '../../src/mcp/result.js';
import { tempDir } from '../helpers/temp.js';
import { chance, pick, type Gen } from './answers.js';
import { JUDGED, PROPOSES, writeFixtures } from './cases.js';
import { aimsOf, documentedExits, FUZZ_TODAY, fuzzParameters, HOSTILITIES } from './harness.js';
import { virtualClock } from '../helpers/virtual-clock.js';
import { brokenFor } from './judge.js';
import { FUZZ_KEY, keyFormsIn } from './key.js';
import { Scenario, StandIn } from './stand-in.js';

/** Runs per tool in `npm test`: a few seconds for all of them on two cores. */
const RUNS = 6;
const TEST_SEED = 37;
const RUN_BOUND_MS = 12_000;

/** A tool call, the command it runs (whose verdict views judge it), and the field that says its verdict. */
interface McpCase {
  tool: string;
  args: Record<string, unknown>;
  command: string;
  verdict?: 'inSync' | 'onPace';
}

const CASES: readonly McpCase[] = [
  { tool: 'plans_verify', args: { slug: 'spring-sale' }, command: 'plans verify', verdict: 'inSync' },
  { tool: 'plans_verify', args: { slug: 'spring-sale', propose: true }, command: 'plans verify', verdict: 'inSync' },
  { tool: 'plans_pacing', args: { slug: 'spring-sale', asOf: FUZZ_TODAY, bandLow: 80, bandHigh: 120 }, command: 'plans pacing', verdict: 'onPace' },
  { tool: 'observe_drift', args: { advertiser: 'acc_123' }, command: 'observe drift', verdict: 'inSync' },
  { tool: 'observe_campaigns_list', args: { limit: 5 }, command: 'observe campaigns list' },
  { tool: 'observe_campaigns_list_live', args: { advertiserId: 'acc_123' }, command: 'observe campaigns list' },
  { tool: 'observe_campaigns_get', args: { advertiserId: 'acc_123', id: '456' }, command: 'observe campaigns get' },
  { tool: 'observe_insights', args: { since: '2026-09-01', until: FUZZ_TODAY }, command: 'observe insights' },
  { tool: 'skills_list', args: {}, command: 'skills list' },
  { tool: 'plans_get', args: { slug: 'spring-sale' }, command: 'plans get' },
  { tool: 'mutations_list', args: { advertiserId: 'acc_123' }, command: 'mutations list' },
];

/** Raw control characters a terminal or an agent's reader acts on (tab and line breaks are layout). */
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;

/** Every string of a decoded value, keys included. */
function stringsOf(v: unknown, out: string[] = []): string[] {
  if (typeof v === 'string') out.push(v);
  else if (Array.isArray(v)) for (const x of v) stringsOf(x, out);
  else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) stringsOf(x, out.concat(k));
  return out;
}

const registry = getRegistry();
const standIn = new StandIn();
const work = tempDir('adops-mcp-fuzz-work-');
const tools = [...operationTools(registry, join(work, 'changes')), ...flowTools({ changeDir: join(work, 'changes') })];
let files: ReturnType<typeof writeFixtures>;

beforeAll(async () => {
  await standIn.start();
  files = writeFixtures(work);
});
afterAll(() => standIn.stop());

interface McpRunReport {
  failures: string[];
  result: string;
  trace: string;
}

/** One tools/call of `c` against a service the generator draws, judged. */
async function mcpRunOnce(c: McpCase, g: Gen): Promise<McpRunReport> {
  const controller = new AbortController();
  const argv = c.args.propose === true ? [PROPOSES[c.command]!.flag] : [];
  const scenario = new Scenario(g, pick(g, HOSTILITIES), FUZZ_TODAY, standIn.storageOrigin, () => controller.abort(), { files, aims: aimsOf(c.command, argv) });
  standIn.scenario = scenario;
  const dir = tempDir('adops-mcp-fuzz-');
  let trace = '';
  const setup: ServerSetup = {
    tools,
    gate: { allowWrites: false, allowDestructive: false },
    version: 'fuzz',
    run: commandRunner({
      registry,
      env: { ADOPS_BASE_URL: standIn.apiOrigin, ADOPS_API_KEY: FUZZ_KEY, ADOPS_CONFIG_DIR: join(dir, 'config'), CI: 'true' },
      globals: {},
      signal: controller.signal,
      clock: virtualClock(Date.parse(`${FUZZ_TODAY}T12:00:00Z`)),
      trace: chance(g, 50) ? (line) => (trace += `${line}\n`) : undefined,
    }),
  };
  let timer: NodeJS.Timeout | undefined;
  try {
    const bound = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), RUN_BOUND_MS)));
    const result: CallResult | null = await Promise.race([callTool(setup, c.tool, c.args, controller.signal), bound]);
    const failures: string[] = [];
    if (scenario.overBudget) failures.push(`sent more than the request budget (${scenario.requests.length} requests)`);
    if (result === null) return { failures: [...failures, 'did not end within its bound'], result: '', trace };
    const text = result.content.map((p) => p.text).join('\n');
    let value: unknown = text;
    try {
      value = JSON.parse(result.content[0]?.text ?? '');
    } catch {
      // Text cut at the cap: judged as text (and an error result without its exit code fails below).
    }
    for (const [where, t] of [
      ['the result', [text, ...stringsOf(value)].join('\n')],
      ['the --debug trace', trace],
    ] as const) {
      const forms = keyFormsIn(t);
      if (forms.length) failures.push(`a form of the key in ${where}: ${forms.join(', ')}`);
      const control = CONTROL.exec(t);
      if (control) failures.push(`a control character (U+${control[0].charCodeAt(0).toString(16).padStart(4, '0')}) in ${where}`);
    }
    const report = value !== null && typeof value === 'object' ? new Map(Object.entries(value)) : new Map<string, unknown>();
    if (result.isError) {
      const code = report.get('exitCode');
      const documented = [...COMMON_EXITS, ...documentedExits(registry, c.command)];
      if (typeof code !== 'number' || !documented.includes(code))
        failures.push(`an error result with exit code ${String(code)}, not one ${c.command} documents`);
      else if (report.get('exitMeaning') !== exitMeaning(code)) failures.push(`exit ${code} explained as ${JSON.stringify(report.get('exitMeaning'))}`);
    } else if (c.verdict && report.get(c.verdict) === true) {
      const judged = JUDGED[c.command]!;
      const broken = scenario.served.flatMap((s) => brokenFor(s, judged, argv) ?? []);
      if (broken.length)
        failures.push(`${c.verdict}: true on an answer broken where its verdict reads it: ${broken.map((m) => `${m.kind} at ${m.at}`).join('; ')}`);
    }
    return { failures, result: text, trace };
  } finally {
    clearTimeout(timer);
    controller.abort();
    standIn.scenario = undefined;
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('the contract fuzzer through adops mcp', () => {
  it('every case names a tool the server has, read-only, and a command the CLI fuzzer judges where it says a verdict', () => {
    for (const c of CASES) {
      expect(tools.find((t) => t.name === c.tool)?.access, c.tool).toBe('read');
      if (c.verdict) expect(JUDGED[c.command], c.command).toBeDefined();
    }
  });

  for (const tool of new Set(CASES.map((c) => c.tool))) {
    it(`${tool}: no key, no control character, a documented exit and its meaning, no verdict on a broken answer`, async () => {
      const params = fuzzParameters(RUNS);
      const seed = params.seed ?? TEST_SEED;
      const cases = CASES.filter((c) => c.tool === tool);
      const result = await fc.check(
        fc.asyncProperty(fc.constantFrom(...cases), fc.gen(), async (c, g) => {
          const r = await mcpRunOnce(c, g);
          if (r.failures.length)
            throw new Error(`${c.tool} ${JSON.stringify(c.args)}\n  - ${r.failures.join('\n  - ')}\n  result: ${JSON.stringify(r.result.slice(0, 600))}`);
        }),
        { ...params, seed, endOnFailure: true },
      );
      if (result.failed) throw new Error(`${tool}: seed ${seed}, path ${result.counterexamplePath}\n${String(result.errorInstance)}`);
    }, 120_000);
  }
});
