// From what a person typed to the request an operation command sends: path
// params from positional arguments, query and body fields from derived flags,
// `-f`/`-F`/`--input` for what has no flag. Everything is checked against
// what the operation accepts before anything is sent; a field the operation's
// published schema does not know is sent anyway (the real service may accept
// more than this CLI knows) with a warning that names the known ones.
import type { CommandContext } from '../../cli/context.js';
import { UsageError } from '../../cli/errors.js';
import { closest, fromText, queryProblem, valueProblem } from '../../cli/input-checks.js';
import { inputsOf, type FieldFlag, type OperationCommandData, type OperationInput } from './operation-data.js';
import { camel } from '../../cli/registry.js';
import type { FieldInput, OperationInputs } from '../../contract/operation-inputs.js';
import { fillPath, operation, type OperationDef } from '../../contract/operations.js';
import { ADVERTISER_PREFIX } from '../../contract/ids.js';
import { objectBody, setPath, splitField } from './fields.js';
import { asText } from '../../cli/output/sanitize.js';

export interface BuiltRequest {
  op: OperationDef;
  path: string;
  params: Record<string, string>;
  query: Record<string, string>;
  body?: Record<string, unknown>;
}

const flagLabel = (flags: readonly FieldFlag[], field: string) => {
  const f = flags.find((x) => x.field === field);
  return f ? `--${f.flag}` : `field ${field}`;
};

/** Warn about fields the operation does not list, with the closest known name. */
export function warnUnknown(
  ctx: Pick<CommandContext, 'warn'>,
  opId: string,
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

function checkParam(name: string, f: FieldInput, value: string): void {
  if (value === '') throw new UsageError(`<${name}> cannot be empty`);
  const problem = queryProblem({ ...f, type: 'string' }, value);
  if (problem) throw new UsageError(`<${name}> ${problem}, got "${value}"`);
}

/** The query from flags and -f, each value checked. */
function buildQuery(
  input: OperationInput,
  data: OperationCommandData,
  io: OperationInputs,
  opId: string,
  ctx: CommandContext,
  usable: readonly FieldFlag[],
): Record<string, string> {
  const query: Record<string, string> = {};
  const extra = (input.opts.field ?? []).map(splitField);
  warnUnknown(
    ctx,
    opId,
    'query parameter',
    extra.map(([k]) => k),
    io.query,
  );
  for (const [k, v] of extra) query[k] = v;
  for (const ff of usable) {
    const raw = input.opts[camel(ff.flag)];
    if (raw === undefined) continue;
    query[ff.field] = Array.isArray(raw) ? raw.join(',') : asText(raw);
  }
  for (const f of io.query) {
    const value = query[f.name];
    if (value === undefined) {
      if (f.required) throw new UsageError(`${flagLabel(data.flags, f.name)} is required`);
      continue;
    }
    const problem = queryProblem(f, value);
    if (problem) throw new UsageError(`${flagLabel(data.flags, f.name)} ${problem}, got "${value}"`);
  }
  return query;
}

/** Which fields a body must carry: per shape when the body is one of several (a mutation's action). */
function requiredFields(io: NonNullable<OperationInputs['body']>, body: Record<string, unknown>): string[] {
  const v = io.variants;
  if (v) {
    const shape = v.shapes.find((s) => s.value === body[v.by]);
    if (shape) return shape.required;
  }
  return io.fields.filter((f) => f.required).map((f) => f.name);
}

async function buildBody(
  input: OperationInput,
  data: OperationCommandData,
  io: OperationInputs,
  opId: string,
  ctx: CommandContext,
): Promise<Record<string, unknown> | undefined> {
  const bodyIo = io.body;
  if (!bodyIo) return undefined;
  const byName = new Map(bodyIo.fields.map((f) => [f.name, f]));
  const typed = input.opts.field ?? [];
  // -f is text; where the schema wants a number or boolean, convert it (`-f budget=50`).
  const body = await objectBody({ ...input.opts, field: [] }, ctx.io.stdin);
  for (const raw of typed) {
    const [k, v] = splitField(raw);
    const top = k.split('.')[0]!;
    const nested = k.includes('.');
    setPath(body, k, nested ? v : fromText(byName.get(top), v));
  }
  const given = Object.keys(body);
  warnUnknown(ctx, opId, 'body field', given, bodyIo.fields);
  for (const ff of data.flags) {
    if (ff.in !== 'body') continue;
    const raw = input.opts[camel(ff.flag)];
    if (raw === undefined) continue;
    body[ff.field] = typeof raw === 'string' ? fromText(ff.input, raw) : Array.isArray(raw) ? fromText(ff.input, raw.join(',')) : raw;
  }
  for (const [k, value] of Object.entries(body)) {
    const f = byName.get(k);
    const problem = f && valueProblem(f, value);
    if (problem)
      throw new UsageError(
        `${flagLabel(data.flags, k)} ${problem}${typeof value === 'string' ? `, got "${value.length > 40 ? value.slice(0, 40) + '…' : value}"` : ''}`,
      );
  }
  const missing = requiredFields(bodyIo, body).filter((k) => body[k] === undefined);
  if (missing.length && (bodyIo.required || Object.keys(body).length > 0)) {
    throw new UsageError(
      `missing ${missing.map((k) => flagLabel(data.flags, k)).join(', ')}`,
      `${opId} needs ${missing.join(', ')}; give ${missing.length > 1 ? 'them' : 'it'} as flags, -F key=value or in --input`,
    );
  }
  return body;
}

/** Build and check the request; throws UsageError before anything is sent. */
export async function buildRequest(ctx: CommandContext, input: OperationInput, data: OperationCommandData): Promise<BuiltRequest> {
  const opts = input.opts;
  let opId = data.operationId;
  const params: Record<string, string> = {};
  for (const a of data.args) {
    const value = String(input.args[a.name] ?? '');
    checkParam(a.name, a.input, value);
    params[a.param] = value;
  }
  let usable = data.flags.filter((f) => f.in === 'query' && inputsOf(opId).query.some((q) => q.name === f.field));
  const alt = data.alternate;
  const altRaw = alt ? opts[camel(alt.flag)] : undefined;
  const altValue = typeof altRaw === 'string' ? altRaw : undefined;
  if (alt && altValue !== undefined) {
    if (!altValue.startsWith(ADVERTISER_PREFIX))
      throw new UsageError(`--${alt.flag} needs an advertiser id starting with ${ADVERTISER_PREFIX}, got "${altValue}"`);
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
  const query = op.method === 'GET' || op.method === 'DELETE' || !io.body ? buildQuery(input, data, io, opId, ctx, usable) : {};
  const body = await buildBody(input, data, io, opId, ctx);
  return { op, path: fillPath(op.path, params), params, query, ...(body ? { body } : {}) };
}
