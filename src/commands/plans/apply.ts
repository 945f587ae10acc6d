// `adops plans apply FILE`: a plan and its Line Items from one JSON document
// ({ …plan fields, lineItems: [ {…}, … ] }). The plan and each Line Item are
// checked whole against the schemas createCampaignPlan and addLineItem publish
// (src/contract/request-check.ts) before anything is sent; the
// flow (flows/plan-apply.ts) deletes the new plan again when the service
// refuses a Line Item, so nothing is left half-done. The plan, as the service
// then holds it, on stdout.
import type { CommandContext } from '../../cli/context.js';
import { UsageError } from '../../cli/errors.js';
import { EXIT } from '../../cli/exit-codes.js';
import { checkRequest, dotted } from '../../contract/request-check.js';
import { valueAt } from '../../contract/validation-words.js';
import { got } from '../_shared/request-sources.js';
import { prepareOutput, writeObject } from '../../cli/output/writers.js';
import type { CommandInput } from '../../cli/registry.js';
import { applyPlan, LineItemRefused, type PlanDocument } from '../../flows/plan-apply.js';
import { MarkerHeld, PlanApplyMarkers } from '../../state/plan-markers.js';
import { serviceScope } from '../../state/fingerprint.js';
import { CliError, messageOf } from '../../cli/errors.js';
import { readStdin } from '../_shared/stdin.js';
import { readProblem, readTextFile } from '../../cli/read-file.js';
import { appendStepSummary } from '../../cli/output/step-summary.js';
import { planTable } from '../../flows/step-summary.js';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Every problem of one body (the plan's fields, or one Line Item) as the contract's schema finds it, each
 * named by its place in the file (`lineItems[2].budget`). A name the operation does not list is refused
 * here, not sent with a warning: a plan file is written for this command, and a typo would otherwise
 * create the plan and then delete it again when the service refuses the Line Item.
 */
async function bodyProblems(operationId: 'createCampaignPlan' | 'addLineItem', body: Record<string, unknown>, where: string): Promise<string[]> {
  const what = where ? 'of a line item' : 'of a plan';
  return (await checkRequest(operationId, 'body', body)).map((i) => {
    const name = i.pointer ? `${where}${dotted(i.pointer)}` : where.slice(0, -1) || 'the plan';
    if (i.unknown) return `${name} is not a field ${what} (fields: ${[...i.unknown.known, ...(where ? [] : ['lineItems'])].join(', ')})`;
    return `${name} ${i.text}${got(valueAt(body, i.pointer))}`;
  });
}

export async function planDocument(value: unknown): Promise<PlanDocument> {
  if (!isObject(value)) throw new UsageError('the file must hold a JSON object: the plan\'s fields and "lineItems"');
  const { lineItems = [], ...plan } = value;
  if (!Array.isArray(lineItems)) throw new UsageError('lineItems must be a list of objects');
  const problems = await bodyProblems('createCampaignPlan', plan, '');
  for (const [i, li] of lineItems.entries()) {
    if (isObject(li)) problems.push(...(await bodyProblems('addLineItem', li, `lineItems[${i}].`)));
    else problems.push(`lineItems[${i}] must be an object`);
  }
  if (problems.length) throw new UsageError(problems.join('; '), 'nothing was sent');
  return { plan: plan as PlanDocument['plan'], lineItems: lineItems as PlanDocument['lineItems'] };
}

async function readDocument(source: string, ctx: CommandContext): Promise<unknown> {
  let text: string;
  try {
    text = source === '-' ? await readStdin(ctx.io.stdin) : readTextFile(source);
  } catch (err) {
    throw err instanceof UsageError ? err : readProblem('stdin', err);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new UsageError(`${source} is not valid JSON`);
  }
}

export async function run(ctx: CommandContext, input: CommandInput): Promise<number> {
  const out = await prepareOutput(ctx, 'campaignPlan');
  const doc = await planDocument(await readDocument(String(input.args.file), ctx));
  const client = await ctx.client();
  // Markers of applies in progress, per service and key (a killed run's leftover is recognised by the next).
  const auth = ctx.auth();
  const markers = new PlanApplyMarkers(ctx.config.dir, serviceScope(auth.baseUrl, auth.apiKey), () => ctx.clock.now());
  let plan: Record<string, unknown>;
  try {
    plan = await applyPlan(client, doc, { signal: ctx.signal, onNote: ctx.note, markers });
  } catch (err) {
    if (err instanceof MarkerHeld) {
      throw new CliError(
        err.message,
        EXIT.conflict,
        `wait for it to finish; if that process is gone (another machine sharing this config dir), remove ${err.path} and apply again`,
        'apply_in_progress',
      );
    }
    if (!(err instanceof LineItemRefused)) throw err;
    ctx.note(`lineItems[${err.index}] (${String(doc.lineItems[err.index]!.name)}) was refused:`);
    const refused = { index: err.index, error: messageOf(err.cause), rolledBack: err.rolledBack };
    appendStepSummary(ctx, { command: `adops plans apply ${String(input.args.file)}`, ...planTable(doc, undefined, refused) });
    throw err.cause;
  }
  await writeObject(plan, out);
  appendStepSummary(ctx, { command: `adops plans apply ${String(input.args.file)}`, ...planTable(doc, plan) });
  return EXIT.ok;
}
