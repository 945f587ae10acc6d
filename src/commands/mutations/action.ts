// adops mutations pause|activate|archive|delete|rename|budget|bid ACC --campaign ID | --ad-group ID:
// one named change (its body made by the action's entry, src/contract/mutation-actions.ts),
// checked before sending by the contract's own schema (./_change.ts),
// then the same start, --dry-run and --wait as `mutations start`.
import type { CommandContext } from '../../cli/context.js';
import { UsageError } from '../../cli/errors.js';
import type { CommandInput, CommandSpec } from '../../cli/registry.js';
import type { StartOptions } from './_start.js';
import { bodyOf } from '../../contract/mutation-actions.js';
import { changeProblems } from './_change.js';
import { startAndReport, startFlags } from './_start.js';

/** The options of every named action (each declares the ones it takes: all are optional here). */
export type ActionOptions = StartOptions & {
  campaign?: string;
  adGroup?: string;
  name?: string;
  amount?: number;
  type?: 'daily' | 'lifetime';
  strategy?: string;
};

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

/** `action`: the createMutation action the command sends (bound by its definition). */
export async function run(ctx: CommandContext, input: CommandInput<ActionOptions, { advertiser: string }>, spec: CommandSpec, action: string): Promise<number> {
  const o = input.opts;
  const { campaign, adGroup } = o;
  if ((campaign === undefined) === (adGroup === undefined)) {
    throw new UsageError(`name exactly one target: --campaign ID or --ad-group ID`, `e.g. adops ${spec.path.join(' ')} acc_123 --campaign 456`);
  }
  const body = bodyOf({
    advertiserId: input.args.advertiser,
    action,
    targetType: campaign !== undefined ? 'campaign' : 'ad_group',
    targetId: campaign ?? adGroup,
    name: o.name,
    amount: o.amount,
    budgetType: o.type,
    bidStrategy: o.strategy,
  });
  const problems = (await changeProblems(body)).map((p) => FLAG_OF.reduce((text, [re, flag]) => text.replace(re, flag), p));
  if (problems.length) throw new UsageError(problems.join('; '), 'nothing was sent');
  return startAndReport(ctx, body, startFlags(o));
}
