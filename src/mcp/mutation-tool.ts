// The change tool (`mutations_start`, createMutation): a change sent as the CLI
// sends a change file, so it is journaled as the CLI journals changes and its
// undo is read live before it is sent. The tool's Idempotency-Key names a
// one-row change file in the server's changes directory, run by `adops mutations
// apply FILE --journal … --undo-file …`: the journal records the row's key before
// its POST and its mutation after, so a second call with the same key sends
// nothing new (apply skips a row already started, and resends one in doubt with
// its recorded key, which the service answers with the same mutation); the undo
// file holds the inverse (src/contract/mutation-actions.ts inverseOf) read
// before the first POST, returned as the arguments that undo the change. One
// key, one change: the same key with another body is refused.
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isRecord } from '../client/json.js';
import { readRows } from '../commands/mutations/_rows.js';
import { inputsOf } from '../commands/_shared/operation-data.js';
import type { OperationDef } from '../contract/operations.js';
import { outcomeOf, usageOutcome } from './result.js';
import { inputSchemaOf } from './tool-input.js';
import type { ToolAnnotations, ToolDef, ToolOutcome } from './tool-def.js';

/** 1 to 255 visible ASCII characters, as the contract's Idempotency-Key header. */
const KEY = /^[\x21-\x7e]{1,255}$/;

const IRREVERSIBLE = new Set(['delete', 'archive']);

interface ChangeFiles {
  file: string;
  journal: string;
  undo: string;
}

/** The files of one key: named by its hash (any visible character may be in a key, not in a file name). */
export function changeFiles(dir: string, key: string): ChangeFiles {
  const h = createHash('sha256').update(key).digest('hex').slice(0, 32);
  return { file: join(dir, `${h}.ndjson`), journal: join(dir, `${h}.journal.ndjson`), undo: join(dir, `${h}.undo.csv`) };
}

/** Write the one-row change file; a key already naming another change is refused. */
function placeChange(files: ChangeFiles, body: Record<string, unknown>, key: string): ToolOutcome | undefined {
  const line = JSON.stringify(body) + '\n';
  if (existsSync(files.file)) {
    if (readFileSync(files.file, 'utf8') === line) return undefined;
    return usageOutcome(`idempotency key ${JSON.stringify(key)} was used for another change; nothing was sent (use a new key for a new change)`);
  }
  mkdirSync(join(files.file, '..'), { recursive: true, mode: 0o700 });
  writeFileSync(files.file, line, { mode: 0o600 });
  return undefined;
}

/** The inverse the undo file holds, as the arguments of this tool that undo the change. */
async function undoOf(files: ChangeFiles, body: Record<string, unknown>): Promise<unknown> {
  if (IRREVERSIBLE.has(String(body.action))) return { none: `${String(body.action)} has no inverse: it cannot be undone` };
  if (!existsSync(files.undo)) return { none: 'no undo file was written (nothing was sent)' };
  const inverses: unknown[] = [];
  for await (const row of readRows(files.undo)) if (row.problems.length === 0) inverses.push(row.body);
  if (inverses.length === 0) return { none: 'the previous value could not be read live' };
  return { tool: 'mutations_start', arguments: { body: inverses[0] }, file: files.undo, command: `adops mutations apply ${files.undo}` };
}

export function mutationTool(op: OperationDef, annotations: ToolAnnotations, changesDir: string): ToolDef {
  const io = inputsOf(op.id);
  const bodySchema = inputSchemaOf(io).properties.body ?? {};
  return {
    name: 'mutations_start',
    title: op.summary,
    description:
      'Start one change on an advertiser (pause, activate, rename, set_budget, set_bid; delete and archive need --allow-destructive). ' +
      'Journaled like `adops mutations apply`; idempotencyKey names the change: calling again with the same key sends nothing new and answers the same mutation. ' +
      'The result holds `undo`: the arguments of this tool that restore the previous value, read live before the change. wait=true polls until it finishes.',
    inputSchema: {
      type: 'object',
      properties: {
        body: bodySchema,
        idempotencyKey: { type: 'string', minLength: 1, maxLength: 255, description: 'names this change (default: a new UUID, returned in the result)' },
        wait: { type: 'boolean', description: 'poll until the change is no longer running' },
      },
      required: ['body'],
      additionalProperties: false,
    },
    annotations,
    toolset: 'mutations',
    access: 'write',
    callAccess: (args) => (isRecord(args.body) && IRREVERSIBLE.has(String(args.body.action)) ? 'destructive' : 'write'),
    operationIds: [op.id, 'getMutation', 'listLiveCampaigns', 'listLiveAdGroups'],
    async call(args, env) {
      const key = args.idempotencyKey ?? randomUUID();
      if (typeof key !== 'string' || !KEY.test(key)) return usageOutcome('idempotencyKey: 1 to 255 visible ASCII characters');
      const body = args.body;
      if (!isRecord(body)) return usageOutcome('body: the change, a JSON object (advertiserId, target, action, …)');
      const files = changeFiles(changesDir, key);
      const refused = placeChange(files, body, key);
      if (refused) return refused;
      const flags = [`--journal=${files.journal}`, `--undo-file=${files.undo}`, '--output=json'];
      if (IRREVERSIBLE.has(String(body.action))) flags.push('--allow-irreversible');
      if (args.wait === true) flags.push('--wait');
      const outcome = outcomeOf(await env.run(['mutations', 'apply', ...flags, '--', files.file], { signal: env.signal }), { list: false });
      if (!outcome.ok) return { ...outcome, error: { ...(isRecord(outcome.error) ? outcome.error : { message: outcome.error }), idempotencyKey: key } };
      // apply's summary is a list of rows: this file's one row (row, action, target, mutationId, state, error).
      const row: unknown = Array.isArray(outcome.value) ? outcome.value[0] : outcome.value;
      return {
        ok: true,
        value: { idempotencyKey: key, ...(isRecord(row) ? row : { result: row }), journal: files.journal, undo: await undoOf(files, body) },
      };
    },
  };
}
