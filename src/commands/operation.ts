// The generic handler of every operation command (see cli/operation-command.ts):
// positional args fill path params, flags become query or body fields, -f and
// --input send what has no flag, lists stream, --wait watches.
import { ADVERTISER_PREFIX, LIMIT_MAX, LIMIT_MIN } from '../contract/ids.js';
import { fillPath, operation } from '../contract/operations.js';
import type { CommandContext } from '../cli/context.js';
import { UsageError } from '../cli/errors.js';
import { EXIT } from '../cli/exit-codes.js';
import type { FieldFlag, OperationCommandSpec } from '../cli/operation-command.js';
import { checkFields } from '../cli/output/format.js';
import { writeObject } from '../cli/output/writers.js';
import { camel, type CommandInput, type CommandSpec } from '../cli/registry.js';
import { fieldsToQuery, objectBody } from './_shared/fields.js';
import { streamList } from './_shared/list.js';
import { waitAndReport } from './_shared/wait.js';

function flagValue(opts: Record<string, unknown>, f: FieldFlag): unknown {
  const value = opts[camel(f.flag)];
  if (value === undefined) return undefined;
  if (f.type === 'list' && Array.isArray(value)) return value.join(',');
  if (f.type === 'list' && typeof value === 'string') return value.split(',').map((s) => s.trim()).filter(Boolean).join(',');
  return value;
}

export async function run(ctx: CommandContext, input: CommandInput, command: CommandSpec): Promise<number> {
  const spec = command.data as OperationCommandSpec;
  const opts = input.opts;
  const params: Record<string, string> = {};
  for (const a of spec.args ?? []) params[a.param] = String(input.args[a.name] ?? '');

  let opId = spec.operationId;
  const alt = spec.alternate;
  const altValue = alt ? (opts[camel(alt.flag)] as string | undefined) : undefined;
  if (alt && altValue !== undefined) {
    if (!altValue.startsWith(ADVERTISER_PREFIX)) throw new UsageError(`--${alt.flag} needs an advertiser id starting with ${ADVERTISER_PREFIX}, got "${altValue}"`);
    const refused = (spec.query ?? []).filter((f) => opts[camel(f.flag)] !== undefined && !alt.queryFlags.includes(f.flag));
    if (refused.length) {
      throw new UsageError(
        `${refused.map((f) => `--${f.flag}`).join(', ')} cannot be used with --${alt.flag}`,
        `a live read names the advertiser in the path and takes no ${refused.map((f) => f.field).join('/')} filter; drop --${alt.flag} to filter the stored copy`,
      );
    }
    opId = alt.operationId;
    params[alt.param] = altValue;
  }
  const op = operation(opId);
  if (spec.query?.some((f) => f.field === 'advertiserId')) {
    const adv = opts.advertiser as string | undefined;
    if (adv !== undefined && !adv.startsWith(ADVERTISER_PREFIX)) throw new UsageError(`--advertiser needs an id starting with ${ADVERTISER_PREFIX}, got "${adv}"`);
  }

  const limit = opts.limit as number | undefined;
  if (limit !== undefined && (limit < LIMIT_MIN || limit > LIMIT_MAX)) throw new UsageError(`--limit must be between ${LIMIT_MIN} and ${LIMIT_MAX}`);
  const max = opts.max as number | undefined;
  if (max !== undefined && max < 1) throw new UsageError('--max must be at least 1');
  if (opts.cursor !== undefined && opts.cursor === '') throw new UsageError('--cursor cannot be empty');

  const fields = checkFields(ctx.output.fields, spec.resource);
  const extra = (opts.field as string[] | undefined) ?? [];
  const isRead = op.method === 'GET' || op.method === 'DELETE';
  const query: Record<string, string | number | undefined> = isRead ? fieldsToQuery(extra) : {};
  for (const f of spec.query ?? []) {
    const v = flagValue(opts, f);
    if (v !== undefined) query[f.field] = v as string;
  }
  if (opts.cursor !== undefined) query.cursor = opts.cursor as string;

  let body: Record<string, unknown> | undefined;
  if (!isRead) {
    body = await objectBody(opts, ctx.io.stdin);
    for (const f of spec.body ?? []) {
      const v = flagValue(opts, f);
      if (v !== undefined) body[f.field] = v;
    }
  }

  const path = fillPath(op.path, params);
  if (op.kind === 'list') {
    return streamList(ctx, { method: op.method, path, query }, { all: opts.all === true, limit, max, resource: spec.resource, fields });
  }

  const client = await ctx.client();
  const fetchOnce = async () => (await client.request({ method: op.method, path, query, ...(body ? { json: body } : {}), signal: ctx.signal })).body;
  const out = { format: ctx.output.format, out: ctx.io.stdout, resource: spec.resource, fields, color: ctx.output.color };

  if (spec.watch && opts.wait === true) {
    const again = `adops ${command.path.join(' ')} ${Object.values(params).join(' ')} --wait`;
    return waitAndReport(ctx, fetchOnce, { timeoutSeconds: opts.timeout as number | undefined, intervalSeconds: opts.interval as number | undefined, again }, out);
  }

  const spinner = await ctx.spinner('Working…');
  let value: unknown;
  try {
    value = await fetchOnce();
  } finally {
    spinner.stop();
  }
  await writeObject(value, out);
  return EXIT.ok;
}
