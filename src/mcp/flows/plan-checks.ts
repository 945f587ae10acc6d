// The read-only checks as tools: plans_verify (the plan against what runs),
// plans_pacing (spend against plan) and observe_drift (stored against live).
// Each runs its command with --exit-code and carries the judgement as a field
// (inSync, onPace); "nothing judged" (a plan with no Line Item to verify, no
// Line Item paced) is the tool's error, as the command's exit 11 with no row
// is. `propose: true` writes the change file that fixes it (verify --fix,
// pacing --suggest) and returns its path and changes for mutations_preview.
import { readFileSync } from 'node:fs';
import { EXIT } from '../../cli/exit-codes.js';
import { DRIFT_FIELDS } from '../../flows/drift.js';
import type { ToolDef, ToolEnv, ToolOutcome } from '../tool-def.js';
import type { ChangeDir } from './change-dir.js';
import { operationsOf } from './operations.js';
import { failure, runJson, success, type JsonRun } from './run-json.js';
import { ADVERTISER, ArgError, bool, DATE, flag, ID, num, required, SLUG, str, strings, withArgs } from './tool-args.js';

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true } as const;

const rowsOf = (r: JsonRun): unknown[] => (Array.isArray(r.value) ? r.value : []);

/** The change file a check wrote, as the bodies `mutations apply` sends. */
function proposed(file: string): { changeFile: string; changes: unknown[] } {
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '');
  return { changeFile: file, changes: lines.map((l): unknown => JSON.parse(l)) };
}

/** Exit 11 with no row at all: nothing could be judged (the notes say why). */
function nothingJudged(r: JsonRun, what: string): ToolOutcome {
  return {
    ok: false,
    code: EXIT.findings,
    error: { code: 'nothing_judged', status: null, message: r.notes.at(-1) ?? `no Line Item could be ${what}`, exitCode: EXIT.findings, notes: r.notes },
  };
}

const slugArg = { type: 'string', description: 'Campaign Plan slug' };
const lineItemArg = (verb: string) => ({ type: 'string', description: `${verb} only this Line Item (its id)` });
const proposeArg = (what: string) => ({
  type: 'boolean',
  description: `also write the change file (NDJSON) that ${what}; its path and changes are returned for mutations_preview / mutations_apply`,
});

async function verify(args: Record<string, unknown>, env: ToolEnv, dir: ChangeDir): Promise<ToolOutcome> {
  const slug = required(args, 'slug', SLUG);
  const lineItem = str(args, 'lineItem', ID);
  const fix = bool(args, 'propose') ? dir.fresh(`fix-${slug}`, 'ndjson') : undefined;
  const r = await runJson(env, ['plans', 'verify', '--exit-code', ...flag('line-item', lineItem), ...flag('fix', fix), '--', slug]);
  const rows = rowsOf(r);
  if (r.code === EXIT.findings && rows.length === 0) return nothingJudged(r, 'verified');
  if (r.code !== EXIT.ok && r.code !== EXIT.findings) return failure(r);
  return success({ inSync: r.code === EXIT.ok, differences: rows, ...(fix ? proposed(fix) : {}) }, r.notes);
}

/** Rows with a pace were judged; the rest say in their note why not. */
const judged = (row: unknown) => typeof row === 'object' && row !== null && 'pace' in row && row.pace !== null && row.pace !== undefined;

async function pacing(args: Record<string, unknown>, env: ToolEnv, dir: ChangeDir): Promise<ToolOutcome> {
  const slug = required(args, 'slug', SLUG);
  const band = [num(args, 'bandLow', 0, 1e6), num(args, 'bandHigh', 0, 1e6)];
  if (band.filter((b) => b === undefined).length === 1) throw new ArgError('bandLow and bandHigh: give both, or neither (90 and 110)');
  const suggest = bool(args, 'propose') ? dir.fresh(`suggest-${slug}`, 'ndjson') : undefined;
  const r = await runJson(env, [
    'plans',
    'pacing',
    '--exit-code',
    ...flag('as-of', str(args, 'asOf', DATE)),
    ...flag('band', band[0] === undefined ? undefined : band.join(',')),
    ...flag('line-item', str(args, 'lineItem', ID)),
    ...flag('suggest', suggest),
    '--',
    slug,
  ]);
  const rows = rowsOf(r);
  if (r.code === EXIT.findings && !rows.some(judged)) return nothingJudged(r, 'judged');
  if (r.code !== EXIT.ok && r.code !== EXIT.findings) return failure(r);
  return success({ onPace: r.code === EXIT.ok, lineItems: rows, ...(suggest ? proposed(suggest) : {}) }, r.notes);
}

async function drift(args: Record<string, unknown>, env: ToolEnv): Promise<ToolOutcome> {
  const advertiser = required(args, 'advertiser', ADVERTISER);
  const compare = strings(args, 'compare', /^[A-Za-z]+$/);
  const level = str(args, 'level', /^(campaigns|ad-groups)$/);
  const r = await runJson(env, [
    'observe',
    'drift',
    '--exit-code',
    ...flag('level', level),
    ...flag('compare', compare.join(',') || undefined),
    '--',
    advertiser,
  ]);
  if (r.code !== EXIT.ok && r.code !== EXIT.findings) return failure(r);
  return success({ inSync: r.code === EXIT.ok, differences: rowsOf(r) }, r.notes);
}

export function checkTools(dir: ChangeDir): ToolDef[] {
  return [
    {
      name: 'plans_verify',
      title: 'Verify a Campaign Plan against what runs',
      description:
        'The plan against what runs at the providers: each Line Item against the entities it spawned, read live; one difference per row (lineItemId, entityType, entityId, field, planned, live, note). inSync is true when every Line Item matches; a plan with no Line Item to verify is an error (nothing judged). propose: true also writes the change file that brings what runs back to the plan.',
      inputSchema: {
        type: 'object',
        properties: { slug: slugArg, lineItem: lineItemArg('verify'), propose: proposeArg('brings what runs back to the plan (activate, pause, set_budget)') },
        required: ['slug'],
        additionalProperties: false,
      },
      annotations: { title: 'Verify a plan', ...READ_ONLY },
      toolset: 'plans',
      access: 'read',
      operationIds: operationsOf(['plans', 'verify']),
      call: (args, env) => withArgs(() => verify(args, env, dir)),
    },
    {
      name: 'plans_pacing',
      title: 'Pace a Campaign Plan',
      description:
        'Spend against plan per executed Line Item: spend to date from Insights, expected spend, pace (percent), projected spend, inBand. onPace is true when at least one Line Item was judged, none paces outside the band and none is not comparable; no Line Item judged at all is an error (nothing judged). propose: true also writes the change file of daily budgets that bring each Line Item outside the band to its planned total.',
      inputSchema: {
        type: 'object',
        properties: {
          slug: slugArg,
          asOf: { type: 'string', format: 'date', description: 'count spend to this day, YYYY-MM-DD (default today, UTC)' },
          bandLow: { type: 'number', minimum: 0, description: 'lowest pace in percent that counts as on pace (default 90; give bandHigh too)' },
          bandHigh: { type: 'number', minimum: 0, description: 'highest pace in percent that counts as on pace (default 110; give bandLow too)' },
          lineItem: lineItemArg('pace'),
          propose: proposeArg('sets daily budgets back on pace (set_budget)'),
        },
        required: ['slug'],
        additionalProperties: false,
      },
      annotations: { title: 'Pace a plan', ...READ_ONLY },
      toolset: 'plans',
      access: 'read',
      operationIds: operationsOf(['plans', 'pacing']),
      call: (args, env) => withArgs(() => pacing(args, env, dir)),
    },
    {
      name: 'observe_drift',
      title: 'Drift between the stored copy and the provider',
      description:
        "Where the stored copy lags the provider: stored and live reads of one advertiser's campaigns (or ad groups) compared by id; one difference per row (id, name, field, stored, live). inSync is true when there is none.",
      inputSchema: {
        type: 'object',
        properties: {
          advertiser: { type: 'string', pattern: '^acc_', description: 'advertiser id (acc_…)' },
          level: { type: 'string', enum: ['campaigns', 'ad-groups'], description: 'what to compare (default campaigns)' },
          compare: {
            type: 'array',
            items: { type: 'string', enum: [...DRIFT_FIELDS] },
            description: 'compare only these fields (default: all the stored copy carries)',
          },
        },
        required: ['advertiser'],
        additionalProperties: false,
      },
      annotations: { title: 'Drift', ...READ_ONLY },
      toolset: 'observe',
      access: 'read',
      operationIds: operationsOf(['observe', 'drift']),
      call: (args, env) => withArgs(() => drift(args, env)),
    },
  ];
}
