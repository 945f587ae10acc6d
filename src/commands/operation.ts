// The generic handler of every operation command (see cli/operation-command.ts):
// build and check the request (commands/_shared/request-input.ts), then a list
// streams page by page, --wait watches, anything else prints its answer.
import type { CommandContext } from '../cli/context.js';
import { UsageError } from '../cli/errors.js';
import { EXIT } from '../cli/exit-codes.js';
import type { OperationCommandData, OperationInput } from './_shared/operation-data.js';
import { prepareOutput, writeObject, type WriterOptions } from '../cli/output/writers.js';
import type { CommandSpec } from '../cli/registry.js';
import { POLL_VIEWS } from '../contract/answer-views.js';
import { streamList, type ListOptions } from './_shared/list.js';
import { buildRequest } from './_shared/request-input.js';
import { waitAndReport } from './_shared/wait.js';

// Deletes confirm on a terminal naming what goes (the runner asks the handler's module).
export { describeTarget } from './_shared/describe-target.js';

/**
 * --limit, --max and --cursor. --limit and --cursor are query parameters, checked with the rest of the query
 * (request-input.ts); --max is the CLI's own (rows in all, never sent), checked here.
 */
export function pagingOptions(opts: { limit?: number; max?: number; cursor?: string }): { limit?: number; max?: number; cursor?: string } {
  const { limit, max, cursor } = opts;
  if (max !== undefined && max < 1) throw new UsageError('--max must be at least 1');
  return { ...(limit !== undefined ? { limit } : {}), ...(max !== undefined ? { max } : {}), ...(cursor !== undefined ? { cursor } : {}) };
}

/** `extra`: writer options a wrapping handler adds (insights: the chart). */
export async function run(
  ctx: CommandContext,
  input: OperationInput,
  data: OperationCommandData,
  command: CommandSpec,
  extra: Partial<WriterOptions> = {},
  onListEnd?: ListOptions['onEnd'],
): Promise<number> {
  const opts = input.opts;
  const paging = pagingOptions(opts);
  const out = await prepareOutput(ctx, data.resource, extra);
  const req = await buildRequest(ctx, input, data);
  const { op } = req;

  if (op.kind === 'list') {
    const query = { ...req.query, ...(paging.cursor ? { cursor: paging.cursor } : {}) };
    return streamList(
      ctx,
      { method: op.method, path: req.path, query },
      { all: opts.all === true, limit: paging.limit, max: paging.max, resource: data.resource, output: out, ...(onListEnd ? { onEnd: onListEnd } : {}) },
    );
  }

  const client = await ctx.client();
  const fetchOnce = async (signal: AbortSignal = ctx.signal) =>
    client.callUnchecked(op.id, { params: req.params, query: req.query, ...(req.body ? { body: req.body } : {}) }, { signal });

  if (data.watch && opts.wait === true) {
    const again = `adops ${command.path.join(' ')} ${Object.values(req.params).join(' ')} --wait`;
    return waitAndReport(ctx, fetchOnce, { timeoutSeconds: opts.timeout, intervalSeconds: opts.interval, again, view: POLL_VIEWS[op.id] }, out);
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
