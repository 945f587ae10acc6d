// `adops plans apply FILE`: a plan and its Line Items from one JSON document
// ({ …plan fields, lineItems: [ {…}, … ] }). Every field is checked against
// what createCampaignPlan and addLineItem accept before anything is sent; the
// flow (flows/plan-apply.ts) deletes the new plan again when the service
// refuses a Line Item, so nothing is left half-done. The plan, as the service
// then holds it, on stdout.
import type { CommandContext } from '../../cli/context.js';
import { UsageError } from '../../cli/errors.js';
import { EXIT } from '../../cli/exit-codes.js';
import { valueProblem } from '../../cli/input-checks.js';
import { inputsOf } from '../_shared/operation-data.js';
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

/** Checks one body against an operation's fields; names the place (`lineItems[2].budget`) of the first problem. */
function checkBody(operationId: 'createCampaignPlan' | 'addLineItem', body: Record<string, unknown>, where: string): void {
  const known = inputsOf(operationId).body!.fields;
  for (const [key, value] of Object.entries(body)) {
    const f = known.find((x) => x.name === key);
    if (!f)
      throw new UsageError(
        `${where}${key} is not a field ${where ? 'of a line item' : 'of a plan'}`,
        `fields: ${known.map((x) => x.name).join(', ')}${where ? '' : ', lineItems'}`,
      );
    const problem = valueProblem(f, value);
    if (problem) throw new UsageError(`${where}${key} ${problem}`);
  }
  const missing = known.filter((f) => f.required && body[f.name] === undefined).map((f) => f.name);
  if (missing.length) throw new UsageError(`${where || 'the plan '}misses ${missing.join(', ')}`);
}

export function planDocument(value: unknown): PlanDocument {
  if (!isObject(value)) throw new UsageError('the file must hold a JSON object: the plan\'s fields and "lineItems"');
  const { lineItems = [], ...plan } = value;
  if (!Array.isArray(lineItems)) throw new UsageError('lineItems must be a list of objects');
  checkBody('createCampaignPlan', plan, '');
  lineItems.forEach((li, i) => {
    if (!isObject(li)) throw new UsageError(`lineItems[${i}] must be an object`);
    checkBody('addLineItem', li, `lineItems[${i}].`);
  });
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
  const doc = planDocument(await readDocument(String(input.args.file), ctx));
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
