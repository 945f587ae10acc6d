// Handlers of the revision-safe commands: `… update` / `assets rename` (run)
// and `… edit` (runEdit, $EDITOR on a terminal). Both read the row, apply the
// change with its revision and, after a 409 revision_mismatch, re-apply when
// the other writer changed other fields only (src/flows/edit.ts). When they
// changed one of ours: both values per field on stderr, exit 5, unless
// --force. `--revision N` keeps its strict meaning: that revision or exit 5.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CommandContext } from '../../cli/context.js';
import { CliError, UsageError } from '../../cli/errors.js';
import { EXIT } from '../../cli/exit-codes.js';
import { inputsOf, type OperationCommandData, type OperationInput } from './operation-data.js';
import { prepareOutput, writeObject } from '../../cli/output/writers.js';
import type { CommandSpec } from '../../cli/registry.js';
import type { ApiClient } from '../../client/http.js';
import { commandLine } from '../../contract/command-line.js';
import type { OperationId } from '../../contract/operations.js';
import { applyRevisionSafe, isRevisionMismatch, type EditOutcome, type FieldConflict, type Revisioned } from '../../flows/edit.js';
import { editTarget, readEditable, readRow, writeRow, type EditTarget } from '../../flows/edit-targets.js';
import { EditTextError, editedChanges, parseEditText, renderEditText, type EditLayout } from '../../flows/edit-text.js';
import { readObjectInput } from './fields.js';
import { buildRequest, paramsFromArgs } from './request-input.js';
import { checkRequest, dotted } from '../../contract/request-check.js';
import { valueAt } from '../../contract/validation-words.js';
import { got } from './request-sources.js';
import { asText } from '../../cli/output/sanitize.js';

/** Stands for "no revision given" while buildRequest checks the rest (it requires one). */
const NO_REVISION = Number.MAX_SAFE_INTEGER;

interface UpdateRequest {
  params: Record<string, string>;
  changes: Record<string, unknown>;
  /** Given explicitly (--revision, or revision in -F/-f/--input): strict. */
  revision?: number;
}

/** The change as flags, -f/-F and --input give it, checked before anything is sent. */
async function updateRequest(ctx: CommandContext, input: OperationInput, data: OperationCommandData): Promise<UpdateRequest> {
  const opts = input.opts;
  const flag = opts.revision;
  if (flag !== undefined && flag < 1) throw new UsageError('--revision must be at least 1');
  // --input is read here (stdin can be read once) and handed on as -F fields,
  // after a stand-in revision, so one written in the file still counts as given.
  const fromFile = opts.input !== undefined ? await readObjectInput(opts.input, ctx.io.stdin) : {};
  const typed = [`revision=${NO_REVISION}`, ...Object.entries(fromFile).map(([k, v]) => `${k}=${JSON.stringify(v)}`), ...(opts.jsonField ?? [])];
  const { input: _read, ...rest } = opts;
  const req = await buildRequest(ctx, { args: input.args, opts: { ...rest, jsonField: typed } }, data);
  const { revision: sent, ...changes } = req.body ?? {};
  const revision = flag ?? (sent === NO_REVISION || typeof sent !== 'number' ? undefined : sent);
  if (opts.force === true && revision !== undefined)
    throw new UsageError(
      '--force cannot be used with --revision',
      '--revision N writes only over revision N; leave it out to re-apply your change to the current revision',
    );
  if (revision === undefined && Object.keys(changes).length === 0) {
    const names = data.flags.filter((f) => f.in === 'body').map((f) => `--${f.flag}`);
    throw new UsageError('nothing to change', `give at least one of ${names.join(', ')} (or -F field=value, --input FILE)`);
  }
  return { params: req.params, changes, ...(revision !== undefined ? { revision } : {}) };
}

const label = (target: EditTarget, params: Record<string, string>) => `${target.noun} ${Object.values(params).join(' ')}`;

function shown(value: unknown): string[] {
  if (typeof value === 'string' && value.includes('\n'))
    return value
      .replace(/\s+$/, '')
      .split('\n')
      .map((l) => `      | ${l}`);
  return [`      ${JSON.stringify(value ?? null)}`];
}

/** Each conflicting field with both values, for the person deciding (stderr). */
export function conflictLines(conflicts: readonly FieldConflict[]): string[] {
  return conflicts.flatMap((c) => [`  ${c.field}:`, '    theirs:', ...shown(c.theirs), '    yours:', ...shown(c.yours)]);
}

/** The saved row, or a CliError (exit 5) for a conflict or a row that never held still. */
function settle(ctx: CommandContext, outcome: EditOutcome<Revisioned>, what: string): Revisioned {
  if (outcome.kind === 'conflict') {
    const fields = outcome.conflicts.map((c) => c.field).join(', ');
    ctx.note(
      `${what} was changed by someone else since it was read (now revision ${outcome.row.revision}); the same field${outcome.conflicts.length > 1 ? 's' : ''}:`,
    );
    for (const line of conflictLines(outcome.conflicts)) ctx.note(line);
    throw new CliError(
      `not saved: ${fields} of ${what} changed meanwhile`,
      EXIT.conflict,
      'nothing was written; rerun with --force to write yours over theirs',
      'edit_conflict',
    );
  }
  if (outcome.kind === 'exhausted') {
    throw new CliError(
      `not saved: ${what} changed again on each of ${outcome.attempts} attempts${outcome.currentRevision ? ` (now revision ${outcome.currentRevision})` : ''}`,
      EXIT.conflict,
      'another writer keeps changing it; try again later',
      'revision_mismatch',
    );
  }
  for (const c of outcome.overwritten) ctx.note(`--force: wrote your ${c.field} over theirs (${JSON.stringify(c.theirs)?.slice(0, 60)})`);
  if (!outcome.wrote) ctx.note(`no change: ${what} already holds these values (revision ${outcome.row.revision}); nothing sent`);
  else if (outcome.attempts > 1) ctx.note(`${what}: re-applied after another writer's change; saved as revision ${outcome.row.revision}`);
  return outcome.row;
}

function revisionSafe(
  ctx: CommandContext,
  client: ApiClient,
  operationId: OperationId,
  params: Record<string, string>,
  changes: Record<string, unknown>,
  opts: { base?: Revisioned; force: boolean },
) {
  const target = editTarget(operationId);
  return applyRevisionSafe({
    read: () => readRow(client, target, params, ctx.signal),
    write: (c, revision) => writeRow(client, operationId, params, c, revision, ctx.signal),
    changes,
    force: opts.force,
    ...(opts.base ? { base: opts.base } : {}),
    onRetry: ({ revision, theirs }) =>
      ctx.note(`${label(target, params)} changed meanwhile (revision ${revision}: ${theirs.join(', ') || 'no field changed'}); re-applying yours`),
  });
}

/** `skills update`, `brands update`, `brands personas update`, `plans update`, `plans line-items update`, `assets rename`. */
export async function run(ctx: CommandContext, input: OperationInput, data: OperationCommandData): Promise<number> {
  const out = await prepareOutput(ctx, data.resource);
  const req = await updateRequest(ctx, input, data);
  const target = editTarget(data.operationId);
  const what = label(target, req.params);
  const client = await ctx.client();
  let row: Revisioned;
  if (req.revision !== undefined) {
    try {
      row = await writeRow(client, data.operationId, req.params, req.changes, req.revision, ctx.signal);
    } catch (err) {
      if (isRevisionMismatch(err))
        ctx.note(
          `${what} is at revision ${asText(err.extra.currentRevision ?? '?')}, not ${req.revision}: nothing written (leave --revision out to re-apply your change to the current one)`,
        );
      throw err;
    }
  } else {
    row = settle(ctx, await revisionSafe(ctx, client, data.operationId, req.params, req.changes, { force: input.opts.force === true }), what);
  }
  await writeObject(row, out);
  return EXIT.ok;
}

/** Opens $VISUAL / $EDITOR (else vi) on `file`, on this process's terminal. */
async function openEditor(ctx: CommandContext, file: string): Promise<void> {
  const editor = (ctx.env.VISUAL || ctx.env.EDITOR || 'vi').trim();
  // Through sh, as git does: EDITOR may carry arguments ("code --wait").
  const child = spawn('/bin/sh', ['-c', `${editor} "$1"`, 'adops-editor', file], { stdio: [ctx.io.stdin, ctx.io.stdout, ctx.io.stderr], env: ctx.env });
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (c) => resolve(c));
  });
  if (code !== 0)
    throw new CliError(
      `the editor (${editor}) exited with ${code ?? 'a signal'}: nothing sent`,
      EXIT.usage,
      code === 127 ? 'set EDITOR or VISUAL to an editor on your PATH' : undefined,
      'editor_failed',
    );
}

/** The edited changes, as they will be sent (with the revision read), checked whole by the contract's schema: each problem names the field. */
async function checkChanges(operationId: OperationId, changes: Record<string, unknown>, revision: number): Promise<void> {
  const body = { ...changes, revision };
  // The editor offers the update's own fields only: a name it does not list cannot come back from it.
  const issues = (await checkRequest(operationId, 'body', body)).filter((i) => !i.unknown);
  if (issues.length) throw new UsageError(issues.map((i) => `${dotted(i.pointer)} ${i.text}${got(valueAt(body, i.pointer))}`).join('; '), 'nothing was sent');
}

/** `skills edit`, `brands edit`, `brands personas edit`, `plans edit`: the row's fields in $EDITOR, saved revision-safe. */
export async function runEdit(ctx: CommandContext, input: OperationInput, data: OperationCommandData, command: CommandSpec): Promise<number> {
  const update = ['adops', ...command.path.slice(0, -1), 'update'].join(' ');
  if (!ctx.interactive || !ctx.io.stdoutIsTTY) {
    throw new UsageError(
      `adops ${command.path.join(' ')} opens an editor: it needs a terminal (and no --no-input or CI)`,
      `use \`${update}\` with flags, -F field=@file or --input FILE`,
    );
  }
  const params = await paramsFromArgs(data.operationId, data, input);
  const target = editTarget(data.operationId);
  const what = label(target, params);
  const layout: EditLayout = {
    fields: inputsOf(data.operationId).body!.fields.filter((f) => f.name !== 'revision' && !target.notEditable.includes(f.name)),
    blocks: target.blocks,
  };
  const client = await ctx.client();
  const { row: base, frozen } = await readEditable(client, target, params, ctx.signal);
  // Refused before the editor opens: the service would refuse the save (409 plan_frozen).
  if (frozen)
    throw new CliError(
      `${what} cannot be edited: ${frozen}`,
      EXIT.conflict,
      `an approved plan can only be archived (\`${commandLine('updateCampaignPlan', { slug: 'SLUG' }, { status: 'archived' })}\`); an archived one is read-only`,
      'plan_frozen',
    );
  const dir = mkdtempSync(join(tmpdir(), 'adops-edit-'));
  const file = join(
    dir,
    `${Object.values(params)
      .join('-')
      .replace(/[^A-Za-z0-9_-]/g, '_')}.${target.noun.replace(/ /g, '-')}.md`,
  );
  let keep = false;
  try {
    writeFileSync(
      file,
      renderEditText(base, layout, [`adops: ${what}, revision ${base.revision}.`, 'Save and close to apply; close unchanged to send nothing.']),
      { mode: 0o600 },
    );
    await openEditor(ctx, file);
    keep = true; // from here on the file holds the person's work
    let values: Record<string, unknown>;
    try {
      values = parseEditText(readFileSync(file, 'utf8'), layout);
    } catch (err) {
      if (err instanceof EditTextError) throw new UsageError(err.message, 'nothing was sent');
      throw err;
    }
    const changes = editedChanges(base, values, layout);
    await checkChanges(data.operationId, changes, base.revision);
    if (Object.keys(changes).length === 0) {
      keep = false;
      ctx.note(`no change: nothing sent (${what} stays at revision ${base.revision})`);
      return EXIT.ok;
    }
    const row = settle(ctx, await revisionSafe(ctx, client, data.operationId, params, changes, { base, force: input.opts.force === true }), what);
    keep = false;
    ctx.note(`saved ${what}: ${Object.keys(changes).join(', ')} (revision ${row.revision})`);
    if (ctx.output.explicit) await writeObject(row, { ...(await prepareOutput(ctx, data.resource)), fields: undefined });
    return EXIT.ok;
  } catch (err) {
    if (keep) ctx.note(`your edit is kept in ${file}`);
    throw err;
  } finally {
    if (!keep) rmSync(dir, { recursive: true, force: true });
  }
}
