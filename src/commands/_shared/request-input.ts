// From what a person typed to the request an operation command sends: path
// params from positional arguments, query and body fields from derived flags,
// `-f`/`-F`/`--input` for what has no flag. Everything is checked before
// anything is sent by the contract's own compiled schemas
// (src/contract/request-check.ts): each path and query value as the text it
// travels as, the body whole; each problem names what the person typed (the
// flag, the argument, `-f key`, the file's field). A field the operation's
// published schema does not know is sent anyway (the real service may accept
// more than this CLI knows) with a warning that names the known ones.
import type { CommandContext } from '../../cli/context.js';
import { UsageError } from '../../cli/errors.js';
import { closest } from '../../cli/known-words.js';
import { inputsOf, type FieldFlag, type OperationCommandData, type OperationInput } from './operation-data.js';
import { camel } from '../../cli/registry.js';
import type { FieldInput, OperationInputs } from '../../contract/operation-inputs.js';
import { fillPath, operation, type OperationDef, type OperationId } from '../../contract/operations.js';
import { fromText, readObjectInput, setPath, splitField, typedValue } from './fields.js';
import { checkRequest, dotted } from '../../contract/request-check.js';
import { BodySources, got, pointerOf, reportBodyIssues } from './request-sources.js';
import { asText } from '../../cli/output/sanitize.js';

export interface BuiltRequest {
  op: OperationDef;
  path: string;
  params: Record<string, string>;
  query: Record<string, string>;
  body?: Record<string, unknown>;
}

/** Warn about fields the operation does not list, with the closest known name. */
export function warnUnknown(
  ctx: Pick<CommandContext, 'warn'>,
  opId: OperationId,
  where: 'query parameter' | 'body field',
  keys: readonly string[],
  known: readonly FieldInput[],
): void {
  const names = known.map((f) => f.name);
  for (const key of keys) {
    if (names.includes(key)) continue;
    const near = closest(key, names);
    ctx.warn(
      `"${key}" is not a ${where} of ${opId}${near ? ` (did you mean "${near}"?)` : ''}; sending it anyway. Known: ${names.length ? names.join(', ') : 'none'}`,
    );
  }
}

/**
 * Path or query values (text, as they travel) checked by the operation's compiled parameter validators;
 * each problem names what the person typed (`labels`: wire name -> `<slug>`, `--advertiser`, `-f key`).
 */
export async function checkParameters(
  opId: OperationId,
  part: 'params' | 'query',
  values: Readonly<Record<string, string>>,
  labels: ReadonlyMap<string, string>,
): Promise<void> {
  const issues = await checkRequest(opId, part, values);
  if (!issues.length) return;
  const lines = issues.map((i) => {
    const name = dotted(i.pointer);
    return `${labels.get(name) ?? `field ${name}`} ${i.text}${got(values[name])}`;
  });
  throw new UsageError(lines.join('; '));
}

/** The positional arguments' names by the path parameter each fills: `slug` -> `<brand>`. */
const argLabels = (data: OperationCommandData) => new Map(data.args.map((a) => [a.param, `<${a.name}>`]));

/** The path params from the positional arguments: none empty (it would name another path), each checked. */
export async function paramsFromArgs(opId: OperationId, data: OperationCommandData, input: OperationInput): Promise<Record<string, string>> {
  const params: Record<string, string> = {};
  for (const a of data.args) {
    const value = String(input.args[a.name] ?? '');
    if (value === '') throw new UsageError(`<${a.name}> cannot be empty`);
    params[a.param] = value;
  }
  await checkParameters(opId, 'params', params, argLabels(data));
  return params;
}

/** The query from -f and flags (each over the one before), checked with --limit and --cursor, which the list sends beside it. */
async function buildQuery(
  input: OperationInput,
  io: OperationInputs,
  opId: OperationId,
  ctx: CommandContext,
  usable: readonly FieldFlag[],
): Promise<Record<string, string>> {
  const query: Record<string, string> = {};
  const labels = new Map<string, string>();
  const extra = (input.opts.field ?? []).map(splitField);
  warnUnknown(
    ctx,
    opId,
    'query parameter',
    extra.map(([k]) => k),
    io.query,
  );
  for (const [k, v] of extra) {
    query[k] = v;
    labels.set(k, `-f ${k}`);
  }
  for (const ff of usable) {
    const raw = input.opts[camel(ff.flag)];
    if (raw === undefined) continue;
    query[ff.field] = Array.isArray(raw) ? raw.join(',') : asText(raw);
    labels.set(ff.field, `--${ff.flag}`);
  }
  const paging: Record<string, string> = {};
  for (const name of ['limit', 'cursor'] as const) {
    const raw = input.opts[name];
    if (raw === undefined || !io.query.some((f) => f.name === name)) continue;
    paging[name] = String(raw);
    labels.set(name, `--${name}`);
  }
  await checkParameters(opId, 'query', { ...query, ...paging }, labels);
  return query;
}

/**
 * The body from --input, then -F, then -f, then the derived flags (each over the one before), checked
 * whole by the contract's own schema (src/contract/request-check.ts): nested fields, unions and bounds,
 * each problem naming what the person typed. Nothing is sent when it fails.
 */
async function buildBody(
  input: OperationInput,
  data: OperationCommandData,
  io: OperationInputs,
  opId: OperationId,
  ctx: CommandContext,
): Promise<Record<string, unknown> | undefined> {
  const bodyIo = io.body;
  if (!bodyIo) return undefined;
  const byName = new Map(bodyIo.fields.map((f) => [f.name, f]));
  const sources = new BodySources(input.opts.input);
  const body = input.opts.input !== undefined ? await readObjectInput(input.opts.input, ctx.io.stdin) : {};
  for (const raw of input.opts.jsonField ?? []) {
    const [k, v] = splitField(raw);
    setPath(body, k, typedValue(v, k));
    sources.set(pointerOf(k), `-F ${k}`);
  }
  // -f is text; where the schema wants a number or boolean at the top, convert it (`-f budget=50`).
  for (const raw of input.opts.field ?? []) {
    const [k, v] = splitField(raw);
    setPath(body, k, k.includes('.') ? v : fromText(byName.get(k), v));
    sources.set(pointerOf(k), `-f ${k}`);
  }
  for (const ff of data.flags) {
    if (ff.in !== 'body') continue;
    const raw = input.opts[camel(ff.flag)];
    if (raw === undefined) continue;
    body[ff.field] = typeof raw === 'string' ? fromText(ff.input, raw) : Array.isArray(raw) ? fromText(ff.input, raw.join(',')) : raw;
    sources.set(pointerOf(ff.field), `--${ff.flag}`);
  }
  // An optional body left empty is not sent as one (approve without a note).
  if (!bodyIo.required && Object.keys(body).length === 0) return body;
  const issues = await checkRequest(opId, 'body', body);
  reportBodyIssues(ctx, opId, body, issues, sources, (field) => {
    const f = data.flags.find((x) => x.field === field && x.in === 'body');
    return f && `--${f.flag}`;
  });
  return body;
}

/** Build and check the request; throws UsageError before anything is sent. */
export async function buildRequest(ctx: CommandContext, input: OperationInput, data: OperationCommandData): Promise<BuiltRequest> {
  const opts = input.opts;
  let opId = data.operationId;
  const params = await paramsFromArgs(opId, data, input);
  let usable = data.flags.filter((f) => f.in === 'query' && inputsOf(opId).query.some((q) => q.name === f.field));
  const alt = data.alternate;
  const altRaw = alt ? opts[camel(alt.flag)] : undefined;
  const altValue = typeof altRaw === 'string' ? altRaw : undefined;
  if (alt && altValue !== undefined) {
    await checkParameters(alt.operationId, 'params', { ...params, [alt.param]: altValue }, argLabels(data).set(alt.param, `--${alt.flag}`));
    const refused = data.flags.filter((f) => opts[camel(f.flag)] !== undefined && !alt.flags.includes(f.flag));
    if (refused.length) {
      throw new UsageError(
        `${refused.map((f) => `--${f.flag}`).join(', ')} cannot be used with --${alt.flag}`,
        `a live read names the advertiser in the path and takes no ${refused.map((f) => f.field).join('/')} filter; drop --${alt.flag} to filter the stored copy`,
      );
    }
    opId = alt.operationId;
    params[alt.param] = altValue;
    usable = data.flags.filter((f) => alt.flags.includes(f.flag));
  } else {
    const stray = data.flags.filter((f) => opts[camel(f.flag)] !== undefined && f.in === 'query' && !usable.includes(f));
    if (stray.length) throw new UsageError(`${stray.map((f) => `--${f.flag}`).join(', ')} needs --${alt?.flag ?? 'live'}`);
  }
  const op = operation(opId);
  const io = inputsOf(opId);
  const query = op.method === 'GET' || op.method === 'DELETE' || !io.body ? await buildQuery(input, io, opId, ctx, usable) : {};
  const body = await buildBody(input, data, io, opId, ctx);
  return { op, path: fillPath(op.path, params), params, query, ...(body ? { body } : {}) };
}
