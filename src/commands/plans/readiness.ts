// `adops plans line-items readiness PLAN LI [--wait]`: the readiness object on
// stdout; exit 0 ready, 7 not ready (what is missing on stderr). With --wait
// it polls until ready: 8 when the wait times out, 7 at once when it can
// never be (an archived plan).
import type { CommandContext } from '../../cli/context.js';
import { CliError, UsageError } from '../../cli/errors.js';
import { EXIT } from '../../cli/exit-codes.js';
import type { OperationCommandData, OperationInput } from '../_shared/operation-data.js';
import { prepareOutput, writeObject } from '../../cli/output/writers.js';
import { checkAnswer } from '../../client/answer-check.js';
import { waitFor } from '../../client/waiter.js';
import { READINESS_ACCEPTORS, type Readiness } from '../../flows/plan-readiness.js';
import { buildRequest } from '../_shared/request-input.js';
import { problemLines } from './problems.js';
import { pollPace } from '../../client/poll-pace.js';

const missingCodes = (r: Readiness) => (r.missing ?? []).map((m) => m.code).join(', ');

export async function run(ctx: CommandContext, input: OperationInput, data: OperationCommandData): Promise<number> {
  const opts = input.opts;
  const out = await prepareOutput(ctx, data.resource);
  if (opts.wait !== true && (opts.timeout !== undefined || opts.interval !== undefined)) throw new UsageError('--timeout and --interval need --wait');
  const req = await buildRequest(ctx, input, data);
  const client = await ctx.client();
  const params = { slug: req.params.slug!, lineItemId: req.params.lineItemId! };
  // No 2xx on faith: `ready` decides the exit code and ends a wait (a body without it is unexpected_answer, exit 1).
  const fetch = async (signal?: AbortSignal): Promise<Readiness> => {
    const answer = await client.call('getLineItemReadiness', { params }, { signal: signal ?? ctx.signal });
    return checkAnswer('readiness', answer);
  };
  const what = `line item ${req.params.lineItemId} of plan ${req.params.slug}`;
  const again = `adops plans line-items readiness ${req.params.slug} ${req.params.lineItemId} --wait`;

  let value: Readiness | undefined;
  let outcome: 'success' | 'failure' | 'timeout' | 'not_ready';
  if (opts.wait === true) {
    const timeoutMs = (opts.timeout ?? 300) * 1000;
    const spinner = await ctx.spinner('Waiting for readiness…');
    let last: string | undefined;
    try {
      ({ value, outcome } = await waitFor(fetch, {
        acceptors: READINESS_ACCEPTORS,
        timeoutMs,
        ...pollPace(opts.interval),
        now: ctx.clock.now,
        sleep: ctx.clock.sleep,
        signal: ctx.signal,
        onPoll: (r) => {
          const now = r.ready ? 'ready' : `missing: ${missingCodes(r)}`;
          if (now !== last) {
            spinner.update(now);
            if (!ctx.fancy) ctx.note(now);
          }
          last = now;
        },
      }));
    } finally {
      spinner.stop();
    }
  } else {
    value = await fetch();
    outcome = value.ready ? 'success' : 'not_ready';
  }
  if (value === undefined) {
    // The wait's time ran out before the service answered one poll: nothing to show.
    ctx.note(`no answer about ${what} within ${timeoutSeconds(opts)} s; check again with \`${again}\``);
    return EXIT.waitTimeout;
  }
  await writeObject(value, out);
  if (outcome === 'success') return EXIT.ok;
  ctx.note(`${what} is not ready:`);
  for (const line of problemLines(value.missing)) ctx.note(line);
  if (outcome === 'timeout') {
    ctx.note(`still not ready after ${timeoutSeconds(opts)} s; check again with \`${again}\``);
    return EXIT.waitTimeout;
  }
  throw new CliError(
    `${what} is not ready (${missingCodes(value)})`,
    EXIT.refused,
    outcome === 'failure' ? 'the plan is archived: it will never be ready' : remedy(value, req.params, again),
    'not_ready',
  );
}

/**
 * What makes the Line Item ready, for what is missing: waiting helps only when
 * something else is under way; a draft plan needs an approval, an invalid item
 * a change, a connection a person. Codes we do not know: waiting, as before.
 */
function remedy(r: Readiness, p: Record<string, string>, again: string): string {
  const steps = (r.missing ?? []).map((m) => {
    switch (m.code) {
      case 'plan_not_approved':
        return `approve the plan with \`adops plans approve ${p.slug}\``;
      case 'validation_failed':
        return `fix what validation reports (\`adops plans line-items validate ${p.slug} ${p.lineItemId}\`), e.g. with \`adops plans line-items edit ${p.slug} ${p.lineItemId}\``;
      case 'provider_not_connected':
      case 'missing_write_access':
        return "a person must reconnect the advertiser's provider account (with write access)";
      default:
        return `wait for it with \`${again}\``;
    }
  });
  return (
    [...new Set(steps)].join('; then ') +
    (steps.length && !steps.some((s) => s.startsWith('wait')) ? `; then check again with \`${again.replace(/ --wait$/, '')}\`` : '')
  );
}

const timeoutSeconds = (opts: { timeout?: number }) => opts.timeout ?? 300;
