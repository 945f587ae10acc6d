// What every command that starts one change shares (`start` and the named
// actions): --dry-run, the start flow, the "could not tell" failure (exit 10)
// with its key and the commands that check and retry, and --wait with a
// resume hint when interrupted.
import { OPERATION_TABLE } from '../../contract/operations.js';
import { randomUUID } from 'node:crypto';
import type { ApiClient } from '../../client/http.js';
import type { CommandContext } from '../../cli/context.js';
import { CliError, UsageError } from '../../cli/errors.js';
import { checkRequest } from '../../contract/request-check.js';
import { EXIT } from '../../cli/exit-codes.js';
import { prepareOutput, writeObject, type WriterOptions } from '../../cli/output/writers.js';
import { jsonLayout } from '../../cli/output/writers/formats.js';
import { OutcomeUnknownError, startMutation, type Lookup } from '../../flows/mutation-start.js';
import { waitAndReport } from '../_shared/wait.js';
import { commandFor } from './_retry.js';

type Obj = Record<string, unknown>;

export interface StartFlags {
  idempotencyKey?: string | undefined;
  dryRun?: boolean | undefined;
  wait?: boolean | undefined;
  timeout?: number | undefined;
  interval?: number | undefined;
}

/** The options of a command that starts a change (the named actions, start, watch). */
export type StartOptions = { idempotencyKey?: string; dryRun?: boolean; wait?: boolean; timeout?: number; interval?: number };

export function startFlags(o: StartOptions): StartFlags {
  return {
    idempotencyKey: o.idempotencyKey,
    dryRun: o.dryRun === true,
    wait: o.wait === true,
    timeout: o.timeout,
    interval: o.interval,
  };
}

/** Writer options for a mutation, every output flag checked before sending (prepareOutput). */
export function writerFor(ctx: CommandContext): Promise<WriterOptions> {
  return prepareOutput(ctx, 'mutation');
}

/** The request as it would go out; the Authorization header (the API key) is never shown. */
export function dryRunRequest(body: Obj, idempotencyKey: string | undefined): Obj {
  return {
    method: 'POST',
    path: OPERATION_TABLE.createMutation.path,
    headers: { 'content-type': 'application/json', 'idempotency-key': idempotencyKey ?? '(a new UUID when sent)' },
    body,
  };
}

function lookupText(lookup: Lookup): string {
  switch (lookup.kind) {
    case 'forbidden':
      return 'The history could not be searched (this key lacks mutation:read).';
    case 'failed':
      return `The history could not be searched (${lookup.reason}).`;
    case 'searched':
      return lookup.candidates.length
        ? `The history holds ${lookup.candidates.length === 1 ? 'an identical change' : 'identical changes'} created since: ${lookup.candidates.map((c) => String(c.id)).join(', ')} (maybe yours, maybe someone else's).`
        : 'No identical change is in the recent history yet.';
    default:
      return '';
  }
}

export function outcomeUnknown(err: OutcomeUnknownError): CliError {
  const adv = typeof err.body.advertiserId === 'string' ? ` --advertiser ${err.body.advertiserId}` : '';
  const hint = [
    `The change may have started. Its Idempotency-Key: ${err.idempotencyKey}`,
    lookupText(err.lookup),
    `Check: adops mutations list${adv} --limit 20`,
    `Retry safely (the service answers the change already started instead of making a second): ${commandFor(err.body, err.idempotencyKey)}`,
  ].filter(Boolean);
  return new CliError(err.message, EXIT.outcomeUnknown, hint.join('\n  '), 'outcome_unknown');
}

/** Poll a started mutation to its end; on Ctrl-C say how to pick the wait up again. */
export async function waitForMutation(ctx: CommandContext, client: ApiClient, id: string, flags: StartFlags, out: WriterOptions): Promise<number> {
  const fetch = (signal: AbortSignal) => client.call('getMutation', { params: { id } }, { signal });
  try {
    return await waitAndReport(
      ctx,
      fetch,
      { timeoutSeconds: flags.timeout, intervalSeconds: flags.interval, again: `adops mutations watch ${id}`, view: 'mutationPolled' },
      out,
    );
  } catch (err) {
    if (ctx.signal.aborted) ctx.note(`stopped waiting; mutation ${id} goes on at the service. Resume with: adops mutations watch ${id}`);
    throw err;
  }
}

/** The Idempotency-Key a person gave, checked by the contract's headers schema (1-255 visible ASCII characters). */
async function checkKey(key: string | undefined): Promise<void> {
  if (key === undefined) return;
  const issues = await checkRequest('createMutation', 'headers', { 'idempotency-key': key });
  if (issues.length)
    throw new UsageError(`--idempotency-key ${issues.map((i) => i.text).join('; ')}`, 'nothing was sent; a key is 1 to 255 visible ASCII characters');
}

export async function startAndReport(ctx: CommandContext, body: Obj, flags: StartFlags): Promise<number> {
  await checkKey(flags.idempotencyKey);
  const out = await writerFor(ctx);
  if (flags.dryRun) {
    ctx.note('dry run: nothing sent');
    // A request is a JSON document: shown as one, unless a format was asked for (then in it: `-o csv` prints CSV).
    const format = ctx.output.explicit ? out.format : jsonLayout(out.format);
    await writeObject(dryRunRequest(body, flags.idempotencyKey), { ...out, format, fields: undefined });
    return EXIT.ok;
  }
  const client = await ctx.client();
  // Chosen here, not in the flow, so a Ctrl-C mid-send can still name it.
  const idempotencyKey = flags.idempotencyKey ?? randomUUID();
  let started;
  try {
    started = await startMutation(client, body, { signal: ctx.signal, onNote: (m) => ctx.note(m), idempotencyKey, now: ctx.clock.now, sleep: ctx.clock.sleep });
  } catch (err) {
    if (err instanceof OutcomeUnknownError) throw outcomeUnknown(err);
    if (ctx.signal.aborted) {
      ctx.note(
        `interrupted while sending: the change may have started. Its Idempotency-Key: ${idempotencyKey}\n  Retry safely: ${commandFor(body, idempotencyKey)}`,
      );
    }
    throw err;
  }
  // The start flow checked the answer: it names the mutation (else it threw "could not tell").
  const id = started.mutation.id;
  if (!flags.wait) {
    await writeObject(started.mutation, out);
    return EXIT.ok;
  }
  ctx.note(`started ${id}; waiting for it to finish`);
  return waitForMutation(ctx, client, id, flags, out);
}
