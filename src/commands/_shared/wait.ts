// --wait for anything the service works on: poll with the client's waiter
// (client/waiter.ts: waitFor with acceptors), print the last state, and map the end to an exit
// code: 0 done, 8 still running at the timeout, 9 finished and failed.
// Shared by `mutations get` and `mutations start`. `poll` is a fetch function
// or, simpler, the request to send (through ctx.client()).
import type { ApiRequest } from '../../client/http.js';
import type { AnswerViewName } from '../../contract/answer-views.js';
import { pollPace } from '../../client/poll-pace.js';
import { MUTATION_ACCEPTORS, STATE_ACCEPTORS, stateOf, waitFor, type Acceptor } from '../../client/waiter.js';
import type { CommandContext } from '../../cli/context.js';
import { EXIT, type ExitCode } from '../../cli/exit-codes.js';
import { writeObject, type WriterOptions } from '../../cli/output/writers.js';

export interface WaitOptions {
  timeoutSeconds?: number | undefined;
  intervalSeconds?: number | undefined;
  /** The command to check again later, for the timeout message. */
  again: string;
  /** What ends the wait; the operation's state words (else STATE_ACCEPTORS) when absent. */
  acceptors?: readonly Acceptor[];
  /**
   * What the wait reads of each poll (its view): each answer is checked against the contract first, so no
   * answer without a final state of that contract ends the wait 0.
   */
  view?: AnswerViewName | undefined;
}

/** The operation's own final states; the tolerant state words for an operation the contract says nothing of. */
const acceptorsFor = (view: AnswerViewName | undefined): readonly Acceptor[] => (view === 'mutationPolled' ? MUTATION_ACCEPTORS : STATE_ACCEPTORS);

export async function waitAndReport(
  ctx: CommandContext,
  /** One poll; pass `signal` to its request so the timeout can cut it off. */
  poll: ((signal: AbortSignal) => Promise<unknown>) | ApiRequest,
  opts: WaitOptions,
  out: WriterOptions,
): Promise<ExitCode> {
  const timeoutMs = (opts.timeoutSeconds ?? 300) * 1000;
  const fetch = typeof poll === 'function' ? poll : async (signal: AbortSignal) => (await (await ctx.client()).request({ ...poll, signal })).body;
  const spinner = await ctx.spinner('Waiting…');
  let last: string | undefined;
  try {
    const { value, outcome } = await waitFor(fetch, {
      acceptors: opts.acceptors ?? acceptorsFor(opts.view),
      view: opts.view,
      timeoutMs,
      ...pollPace(opts.intervalSeconds),
      now: ctx.clock.now,
      sleep: ctx.clock.sleep,
      signal: ctx.signal,
      onPoll: (v) => {
        const state = stateOf(v);
        if (state !== last) {
          spinner.update(`state: ${state ?? 'unknown'}`);
          if (!ctx.fancy) ctx.note(`state: ${state ?? 'unknown'}`);
        }
        last = state;
      },
    });
    spinner.stop();
    // No poll answered before the timeout: nothing to show on stdout (--timeout bounds the request in flight too).
    if (value !== undefined) await writeObject(value, out);
    if (outcome === 'timeout') {
      ctx.note(`still ${last ?? 'running'} after ${timeoutMs / 1000} s; check again with \`${opts.again}\``);
      return EXIT.waitTimeout;
    }
    if (outcome === 'failure') {
      const err = (value as { error?: { error?: string; message?: string } } | null)?.error;
      ctx.note(`failed${err?.error ? `: ${err.error}` : ''}${err?.message ? `: ${err.message}` : ''}`);
      return EXIT.operationFailed;
    }
    return EXIT.ok;
  } finally {
    spinner.stop();
  }
}
