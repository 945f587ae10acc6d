// `adops plans verify SLUG [--line-item ID] [--exit-code]`: the plan against
// what runs at the providers (flows/plan-verify.ts), one row per difference.
// --exit-code makes any row exit 11, for cron jobs (as `observe drift`), and
// a plan with no Line Item to verify too: "in sync" is said only of Line
// Items whose entities were read and compared. --fix FILE writes the change
// file that brings what runs back to the plan (flows/plan-fix.ts), the rows
// printed as ever.
import type { CommandContext } from '../../cli/context.js';
import { EXIT } from '../../cli/exit-codes.js';
import { ListWriter, prepareOutput } from '../../cli/output/writers.js';
import type { CommandInput } from '../../cli/registry.js';
import { lineText } from '../../cli/output/sanitize.js';
import { chosenItems } from '../../flows/plan-checked.js';
import { verifyPlan } from '../../flows/plan-verify.js';
import { fixOf } from '../../flows/plan-fix.js';
import { checkChangeFile, writeChangeFile } from './change-file.js';
import { readPlan, todayOf } from './plan-read.js';

type Opts = { lineItem?: string; exitCode?: boolean; fix?: string; force?: boolean };

export async function run(ctx: CommandContext, input: CommandInput<Opts, { slug: string }>): Promise<number> {
  if (input.opts.fix !== undefined) checkChangeFile(input.opts.fix, input.opts.force);
  const out = await prepareOutput(ctx, 'planVerify');
  const client = await ctx.client();
  const plan = await readPlan(ctx, client, input.args.slug, input.opts.lineItem, 'planVerified');
  const spinner = await ctx.spinner('Reading what the Line Items spawned, live…');
  let rows;
  try {
    rows = await verifyPlan(client, plan, { lineItemId: input.opts.lineItem, today: todayOf(ctx), signal: ctx.signal });
  } finally {
    spinner.stop();
  }
  const writer = new ListWriter(out);
  await writer.begin();
  await writer.page(rows);
  await writer.end();
  if (input.opts.fix !== undefined) await writeChangeFile(ctx, input.opts.fix, fixOf(plan, rows), input.opts.force);
  const nothing = (chosenItems(plan, input.opts.lineItem) ?? []).length === 0;
  if (nothing) ctx.note(`no Line Item could be verified: plan ${lineText(plan.slug)} has none`);
  else if (rows.length === 0) ctx.note(`plan ${lineText(plan.slug)} is in sync with what runs`);
  return input.opts.exitCode === true && (rows.length > 0 || nothing) ? EXIT.findings : EXIT.ok;
}
