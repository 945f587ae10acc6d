// What `plans verify` and `plans pacing` share: the plan read once and checked
// through the step's view (flows/plan-checked.ts), the --line-item it names
// checked against it, and today's date.
import type { CommandContext } from '../../cli/context.js';
import { CliError } from '../../cli/errors.js';
import { EXIT } from '../../cli/exit-codes.js';
import { lineText } from '../../cli/output/sanitize.js';
import type { ApiClient } from '../../client/http.js';
import { checkPlan, chosenItems, itemId, type CheckedPlan } from '../../flows/plan-checked.js';

export async function readPlan(
  ctx: CommandContext,
  client: ApiClient,
  slug: string,
  lineItemId: string | undefined,
  view: 'planVerified' | 'planPaced',
): Promise<CheckedPlan> {
  const plan = await checkPlan(view, await client.call('getCampaignPlan', { params: { slug } }, { signal: ctx.signal }));
  if (chosenItems(plan, lineItemId) === undefined) {
    throw new CliError(
      `plan ${lineText(slug)} has no Line Item ${lineText(lineItemId ?? '')}`,
      EXIT.notFound,
      `its Line Items: ${
        plan.items
          .flatMap((item) => itemId(item) ?? [])
          .map(lineText)
          .join(', ') || 'none'
      }`,
      'not_found',
    );
  }
  if (plan.status === 'draft') ctx.note(`plan ${lineText(slug)} is a draft: nothing of it has been launched yet`);
  return plan;
}

/** Today in UTC, the calendar of flight dates and Insights days. */
export const todayOf = (ctx: CommandContext): string => new Date(ctx.clock.now()).toISOString().slice(0, 10);
