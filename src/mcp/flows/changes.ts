// The change-file loop of issue #36 as tools: mutations_preview (every row's
// target read live: current value, new value, effect; nothing sent),
// mutations_apply (sent with the journal and Idempotency-Keys of `mutations
// apply`, always with an undo file written and synced before the first POST;
// a row with no way back, such as delete or archive, stops the run before
// anything is sent) and mutations_undo (an undo file applied). Changes come as
// a change file's path (what plans_verify / plans_pacing propose) or inline;
// inline changes are kept in a file named by their hash, so the same changes
// applied twice resume one journal and are sent once.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { readRows } from '../../commands/mutations/_rows.js';
import { readUndoHeader } from '../../commands/mutations/_undo.js';
import type { ToolDef, ToolEnv, ToolInputSchema, ToolOutcome } from '../tool-def.js';
import type { ChangeDir } from './change-dir.js';
import { operationsOf } from './operations.js';
import { failure, runJson, success, type JsonRun } from './run-json.js';
import { ArgError, bool, flag, num, str, withArgs } from './tool-args.js';

type Args = Record<string, unknown>;

/** 1 to 255 visible ASCII characters, as the contract's Idempotency-Key. */
const KEY = /^[\x21-\x7e]{1,255}$/;

/** The change file a call names: `file`, or the inline `changes` written to one. */
function changeFile(args: Args, dir: ChangeDir): string {
  const file = str(args, 'file');
  const changes = args.changes;
  if ((file === undefined) === (changes === undefined)) throw new ArgError('give either file (a change file) or changes (an array of changes), not both');
  if (file !== undefined && args.idempotencyKey !== undefined)
    throw new ArgError('idempotencyKey names a round of inline changes; a change file is its own round (its journal sits beside it)');
  if (file !== undefined) return resolve(file);
  if (!Array.isArray(changes) || changes.length === 0 || !changes.every((c) => typeof c === 'object' && c !== null && !Array.isArray(c)))
    throw new ArgError('changes: expected a non-empty array of change objects');
  return dir.inline(changes, str(args, 'idempotencyKey', KEY));
}

/** The bodies of a change (or undo) file, as `mutations apply` reads them. */
async function bodiesOf(file: string): Promise<unknown[]> {
  const bodies: unknown[] = [];
  for await (const row of readRows(file)) bodies.push(row.body);
  return bodies;
}

/** What undoes the run: the undo file and its changes, when it was written. */
async function undoOf(undoFile: string): Promise<{ undo?: { undoFile: string; changes: unknown[]; how: string } }> {
  if (!existsSync(undoFile)) return {};
  return { undo: { undoFile, changes: await bodiesOf(undoFile), how: 'call mutations_undo with this undoFile to put every changed field back' } };
}

const waitFlags = (args: Args) => ['--wait', ...flag('timeout', num(args, 'timeoutSeconds', 1, 3600) ?? 60), '--interval=0.5'];
const rowsOf = (r: JsonRun): unknown[] => (Array.isArray(r.value) ? r.value : []);

async function preview(args: Args, env: ToolEnv, dir: ChangeDir): Promise<ToolOutcome> {
  const file = changeFile(args, dir);
  const r = await runJson(env, ['mutations', 'apply', '--preview', '--', file]);
  if (r.code !== 0) return failure(r);
  return success({ file, rows: rowsOf(r) }, r.notes);
}

async function apply(args: Args, env: ToolEnv, dir: ChangeDir): Promise<ToolOutcome> {
  const file = changeFile(args, dir);
  const undoFile = `${file}.undo.csv`;
  const r = await runJson(env, [
    'mutations',
    'apply',
    `--undo-file=${undoFile}`,
    ...waitFlags(args),
    ...(bool(args, 'skipUnchanged') ? ['--skip-unchanged'] : []),
    '--',
    file,
  ]);
  const undo = await undoOf(undoFile);
  // A run stopped part way may have changed some rows: their way back is in the error too.
  if (r.code !== 0) return failure(r, undo);
  return success({ file, journal: `${file}.adops-journal.ndjson`, rows: rowsOf(r), ...undo }, r.notes);
}

async function undo(args: Args, env: ToolEnv): Promise<ToolOutcome> {
  const given = str(args, 'undoFile');
  if (given === undefined) throw new ArgError('undoFile is required');
  const file = resolve(given);
  if (readUndoHeader(file) === undefined) throw new ArgError(`${given}: not an undo file of mutations_apply (its first line names the service it undoes)`);
  const r = await runJson(env, ['mutations', 'apply', ...waitFlags(args), '--', file]);
  if (r.code !== 0) return failure(r);
  return success({ undoFile: file, rows: rowsOf(r) }, r.notes);
}

/** Delete and archive have no inverse: mutations_apply refuses them (the single mutation tools, gated as destructive, send them). */
const UNDOABLE_ACTIONS = ['pause', 'activate', 'rename', 'set_budget', 'set_bid'];

const CHANGE_INPUT: ToolInputSchema['properties'] = {
  file: {
    type: 'string',
    description:
      'path of a change file (CSV with named columns, or NDJSON of createMutation bodies), e.g. the changeFile plans_verify or plans_pacing proposed',
  },
  changes: {
    type: 'array',
    description: 'the changes inline instead of a file: createMutation bodies',
    items: {
      type: 'object',
      properties: {
        advertiserId: { type: 'string', pattern: '^acc_' },
        action: { type: 'string', enum: UNDOABLE_ACTIONS },
        target: {
          type: 'object',
          properties: { type: { type: 'string', enum: ['campaign', 'ad_group'] }, id: { type: 'string' } },
          required: ['type', 'id'],
        },
        name: { type: 'string', description: 'rename: the new name' },
        budget: {
          type: 'object',
          properties: { amount: { type: 'number' }, type: { type: 'string', enum: ['daily', 'lifetime'] } },
          required: ['amount'],
          description: "set_budget: amount in whole units of the advertiser's currency",
        },
        bidStrategy: { type: 'string' },
        bidAmount: { type: 'number' },
      },
      required: ['advertiserId', 'action', 'target'],
    },
  },
};
const WAIT_INPUT = { timeoutSeconds: { type: 'number', minimum: 1, maximum: 3600, description: 'how long to wait for the changes to finish (default 60)' } };

export function changeTools(dir: ChangeDir): ToolDef[] {
  const ops = operationsOf(['mutations', 'apply']);
  const write = { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true } as const;
  return [
    {
      name: 'mutations_preview',
      title: 'Preview changes against live',
      description:
        "What a change file would do, read live and sending nothing: per row the advertiser, target, field, current value, new value and effect (change, no change, missing, cannot undo). Give a change file's path or the changes inline.",
      inputSchema: { type: 'object', properties: CHANGE_INPUT, additionalProperties: false },
      annotations: { title: 'Preview changes', readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: true },
      toolset: 'mutations',
      access: 'read',
      operationIds: ops.filter((op) => op.startsWith('listLive')),
      call: (args, env) => withArgs(() => preview(args, env, dir)),
    },
    {
      name: 'mutations_apply',
      title: 'Apply changes, undoably',
      description:
        'Apply a change file (or changes inline), one mutation per row with an Idempotency-Key recorded in a journal before it is sent, and wait for them. Before the first change, every target is read live and the undo file (the inverse of every row: previous status, name, budget, bid) is written; the result returns it (undo.undoFile, undo.changes). A row that cannot be undone (delete, archive, a target not found live) stops the run before anything is sent. Calling again with the same changes resumes: nothing is sent twice.',
      inputSchema: {
        type: 'object',
        properties: {
          ...CHANGE_INPUT,
          skipUnchanged: { type: 'boolean', description: 'leave out rows whose target already has the new value' },
          idempotencyKey: {
            type: 'string',
            description:
              'with changes inline: the same key (or none) and the same changes resume one journal, sending nothing twice; a new key sends the same changes again as a new round',
          },
          ...WAIT_INPUT,
        },
        additionalProperties: false,
      },
      annotations: { title: 'Apply changes', ...write },
      toolset: 'mutations',
      access: 'write',
      operationIds: ops,
      call: (args, env) => withArgs(() => apply(args, env, dir)),
    },
    {
      name: 'mutations_undo',
      title: 'Undo applied changes',
      description:
        'Apply the undo file mutations_apply returned (undo.undoFile): every changed field back to the value read before the change, with the same journal and Idempotency-Keys; refused for a file made for another service or key. Calling it again sends nothing twice.',
      inputSchema: {
        type: 'object',
        properties: { undoFile: { type: 'string', description: 'the undo.undoFile of a mutations_apply result' }, ...WAIT_INPUT },
        required: ['undoFile'],
        additionalProperties: false,
      },
      annotations: { title: 'Undo changes', ...write },
      toolset: 'mutations',
      access: 'write',
      operationIds: ops,
      call: (args, env) => withArgs(() => undo(args, env)),
    },
  ];
}
