// `adops plans approve PLAN [--revision N]`: approval freezes a plan, so it
// approves a known revision. Without --revision the plan is read and that
// revision sent: a change made after the read answers 409 (exit 5) rather
// than being approved unseen. A plan that does not validate: 422 plan_invalid
// (exit 7), each Line Item's problems on stderr.
import type { CommandContext } from '../../cli/context.js';
import { EXIT } from '../../cli/exit-codes.js';
import { commandLine } from '../../contract/command-line.js';
import type { OperationCommandData, OperationInput } from '../_shared/operation-data.js';
import { prepareOutput, writeObject } from '../../cli/output/writers.js';
import { ApiError } from '../../client/errors.js';
import { isRevisionMismatch } from '../../flows/edit.js';
import { checkAnswer } from '../../client/answer-check.js';
import { buildRequest } from '../_shared/request-input.js';
import { problemLines } from './problems.js';
import { asText } from '../../cli/output/sanitize.js';

interface PlanHead {
  revision: number;
  status?: string;
  budget?: number | null;
  currency?: string;
  lineItems?: unknown[];
}

export async function run(ctx: CommandContext, input: OperationInput, data: OperationCommandData): Promise<number> {
  const out = await prepareOutput(ctx, data.resource);
  const req = await buildRequest(ctx, input, data);
  const slug = req.params.slug!;
  const body = { ...(req.body ?? {}) };
  const client = await ctx.client();
  if (body.revision === undefined) {
    // The revision approved is the one read: checked first (a plan without one is not approved at a guess).
    const plan: PlanHead = await checkAnswer('planToApprove', await client.call('getCampaignPlan', { params: { slug } }, { signal: ctx.signal }));
    body.revision = plan.revision;
    const items = plan.lineItems?.length ?? 0;
    ctx.note(
      `approving plan ${slug} at revision ${plan.revision} as read now (${plan.status}, ${items} line item${items === 1 ? '' : 's'}${plan.budget != null ? `, budget ${plan.budget} ${plan.currency}` : ''})`,
    );
  }
  try {
    const approved = await client.callUnchecked('approveCampaignPlan', { params: { slug }, body }, { signal: ctx.signal });
    await writeObject(approved, out);
    return EXIT.ok;
  } catch (err) {
    if (isRevisionMismatch(err))
      ctx.note(
        `plan ${slug} changed after revision ${asText(body.revision)} (now ${asText(err.extra.currentRevision ?? '?')}): review it again (\`${commandLine('getCampaignPlan', { slug })}\`) and approve what you reviewed`,
      );
    if (err instanceof ApiError && err.code === 'plan_invalid' && Array.isArray(err.extra.lineItems)) {
      for (const li of err.extra.lineItems as Array<{ lineItemId?: string; problems?: unknown }>) {
        ctx.note(`line item ${li.lineItemId ?? '?'}:`);
        for (const line of problemLines(li.problems, '  ')) ctx.note(line);
      }
    }
    throw err;
  }
}
