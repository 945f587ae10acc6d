// The plan as `plans verify` and `plans pacing` judge it: the answer to GET
// /context/campaign-plans/{slug}, checked through the step's view
// (src/contract/answer-views.ts: planVerified, planPaced). What the plan says
// of itself (its slug, its currency, its list of Line Items) must keep the
// contract, else nothing is judged (`unexpected_answer`, exit 1). A Line Item
// that breaks it (an execution type the contract does not name, a date that is
// not one, a budget sent as text) is set apart with its problems: the check
// says "not comparable" for it, and judges the others.
import { checkAnswer, problemWords, UnexpectedAnswerError } from '../client/answer-check.js';
import { isRecord } from '../client/json.js';
import type { AnswerViewName } from '../contract/answer-views.js';
import type { OperationOutput } from '../contract/operation-io.js';
import { answerIssues, issuesByItem } from '../contract/response-check.js';

export type Plan = OperationOutput<'getCampaignPlan'>;
export type PlanLineItem = Plan['lineItems'][number];

/** A Line Item the answer broke: what can be read of it to name it, and its problems in words. */
export interface BrokenLineItem {
  lineItemId: string | null;
  name: string | null;
  problems: string[];
}

/** One Line Item of the plan, in the plan's order: checked, or set apart. */
export type PlanItem = { li: PlanLineItem } | { broken: BrokenLineItem };

export interface CheckedPlan {
  slug: string;
  currency: string;
  /** Read for a note only (a draft has launched nothing): not judged, so not checked. */
  status: unknown;
  items: PlanItem[];
}

/** The plan's own fields checked (else UnexpectedAnswerError); each Line Item checked, or set apart with its problems. */
export async function checkPlan(view: Extract<AnswerViewName, 'planVerified' | 'planPaced'>, body: Plan): Promise<CheckedPlan> {
  if (!isRecord(body)) await checkAnswer(view, body); // throws: the body is empty, a list, …
  const { items, rest } = issuesByItem(await answerIssues(view, body), '/lineItems');
  if (rest.length > 0) throw new UnexpectedAnswerError('getCampaignPlan', problemWords(rest, 'the answer'), 200);
  return {
    slug: body.slug,
    currency: body.currency,
    status: body.status,
    items: body.lineItems.map((li, i): PlanItem => {
      const issues = items.get(i);
      if (!issues) return { li };
      const raw: unknown = li;
      const text = (field: string) => (isRecord(raw) && typeof raw[field] === 'string' ? raw[field] : null);
      return { broken: { lineItemId: text('lineItemId'), name: text('name'), problems: problemWords(issues, 'the Line Item') } };
    }),
  };
}

/** The id a Line Item is known by, checked or not. */
export const itemId = (item: PlanItem): string | null => ('li' in item ? item.li.lineItemId : item.broken.lineItemId);

/** The Line Items that are checked: all, or those of the id asked for (undefined when the plan has none by that id). */
export function chosenItems(plan: CheckedPlan, lineItemId: string | undefined): PlanItem[] | undefined {
  if (lineItemId === undefined) return plan.items;
  const chosen = plan.items.filter((item) => itemId(item) === lineItemId);
  return chosen.length > 0 ? chosen : undefined;
}

/** Why a Line Item the plan's answer broke cannot be judged: the row's note. */
export const brokenNote = (b: BrokenLineItem): string => `not comparable: the plan's answer breaks the contract: ${b.problems.join('; ')}`;

/**
 * A currency amounts can be compared in: an ISO 4217 code (three capital letters, as a plan is written
 * with). Null, blank or anything else is no currency: two of them are never "the same currency".
 */
export const knownCurrency = (c: unknown): c is string => typeof c === 'string' && /^[A-Z]{3}$/.test(c);
