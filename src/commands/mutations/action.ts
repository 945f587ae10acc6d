// adops mutations pause|activate|archive|delete|rename|budget|bid ACC --campaign ID | --ad-group ID:
// one named change, its fields checked before sending (src/commands/mutations/_body.ts),
// then the same start, --dry-run and --wait as `mutations start`.
import type { CommandContext } from '../../cli/context.js';
import { UsageError } from '../../cli/errors.js';
import type { CommandInput, CommandSpec } from '../../cli/registry.js';
import { bodyOf, bodyProblems } from './_body.js';
import { startAndReport, startFlags } from './_start.js';

export interface ActionData {
  action: string;
}

// Problems name body fields; a person typed flags.
const FLAG_OF: ReadonlyArray<[RegExp, string]> = [
  [/^advertiserId\b/, '<advertiser>'],
  [/^target\.id\b/, '--campaign/--ad-group'],
  [/^budget\.amount\b/, '--amount'],
  [/^budget\.type\b/, '--type'],
  [/^bidStrategy\b/, '--strategy'],
  [/^bidAmount\b/, '--amount'],
  [/^name\b/, '--name'],
];

export async function run(ctx: CommandContext, input: CommandInput, spec: CommandSpec): Promise<number> {
  const { action } = spec.data as ActionData;
  const o = input.opts;
  const campaign = o.campaign as string | undefined;
  const adGroup = o.adGroup as string | undefined;
  if ((campaign === undefined) === (adGroup === undefined)) {
    throw new UsageError(`name exactly one target: --campaign ID or --ad-group ID`, `e.g. adops ${spec.path.join(' ')} acc_123 --campaign 456`);
  }
  const body = bodyOf({
    advertiserId: String(input.args.advertiser ?? ''),
    action,
    targetType: campaign !== undefined ? 'campaign' : 'ad_group',
    targetId: campaign ?? adGroup,
    name: o.name as string | undefined,
    amount: o.amount as number | undefined,
    budgetType: o.type as string | undefined,
    bidStrategy: o.strategy as string | undefined,
  });
  const problems = bodyProblems(body).map((p) => FLAG_OF.reduce((text, [re, flag]) => text.replace(re, flag), p));
  if (problems.length) throw new UsageError(problems.join('; '), 'nothing was sent');
  return startAndReport(ctx, body, startFlags(o));
}
