// Create a Campaign Plan and its Line Items from one document, all or
// nothing: if the service refuses a Line Item (or the run is interrupted)
// after the plan was created, the plan this run created is deleted again, so
// a corrected file can simply be applied again. A plan that already exists is
// refused by the service (409 slug_conflict) before anything else is sent.
//
// A run killed outright (kill -9) cannot roll back; its local marker
// (plan-apply-marker.ts) stays. The next run of the same slug finds it and,
// when the plan on the service is provably that run's draft (the createdAt
// the service answered it, or, if that answer never arrived, created after
// that run began and holding this file's fields), deletes it and applies anew
// (#13). Anything it cannot prove is left alone, and the 409 says what to do.
// No terminal code: progress goes to onNote.
import { checkAnswer } from '../client/answer-check.js';
import { ApiError } from '../client/errors.js';
import { commandLine, commandName } from '../contract/command-line.js';
import type { ApiClient } from '../client/http.js';
import type { PlanApplyMarkers, PlanMarker } from '../state/plan-markers.js';

export interface PlanDocument {
  /** The plan's own fields (createCampaignPlan's body). */
  plan: Record<string, unknown> & { slug: string };
  /** Each one addLineItem's body, added in order. */
  lineItems: Array<Record<string, unknown>>;
}

export interface ApplyOptions {
  signal?: AbortSignal;
  onNote?: (message: string) => void;
  /** Markers of runs in progress (none: no recognition of a killed run's leftover). */
  markers?: PlanApplyMarkers;
}

export class LineItemRefused extends Error {
  override readonly name = 'LineItemRefused';
  constructor(
    readonly index: number,
    override readonly cause: unknown,
    readonly rolledBack: boolean,
  ) {
    super(`line item ${index + 1} was refused`);
  }
}

/** Service and local clocks may differ by this much when judging "created after that run began". */
const CLOCK_SKEW_MS = 2 * 60 * 1000;

type Plan = Record<string, unknown> & { revision?: number; createdAt?: number; status?: string };

export async function applyPlan(client: ApiClient, doc: PlanDocument, opts: ApplyOptions = {}): Promise<Record<string, unknown>> {
  const note = opts.onNote ?? (() => {});
  const slug = doc.plan.slug;
  const params = { slug };
  const markers = opts.markers;
  const { leftover } = markers?.claim(slug) ?? {};
  // Whether something of this run may be left on the service (then the marker stays for the next run).
  let mayLeave = false;
  try {
    if (leftover) await replaceLeftover(client, doc, leftover, note, opts.signal);
    let answer: unknown;
    try {
      mayLeave = true;
      // The file's fields as written: the service checks them.
      answer = await client.callUnchecked('createCampaignPlan', { body: doc.plan }, { signal: opts.signal });
    } catch (err) {
      // Refused by the service: nothing was created.
      if (err instanceof ApiError) mayLeave = false;
      if (err instanceof ApiError && err.code === 'slug_conflict') note(conflictAdvice(slug, leftover));
      throw err;
    }
    // A 2xx that names no plan and revision is not acted on (the plan may exist: the marker stays for the next run).
    const created: Plan = await checkAnswer('planCreated', answer);
    if (typeof created.createdAt === 'number') markers?.created(slug, created.createdAt);
    note(`created plan ${slug} (revision ${String(created.revision)})`);
    for (const [i, item] of doc.lineItems.entries()) {
      try {
        const added = await checkAnswer('lineItemAdded', await client.callUnchecked('addLineItem', { params, body: item }, { signal: opts.signal }));
        note(`added line item ${added.lineItemId} (${String(item.name)})`);
      } catch (err) {
        const rolledBack = await rollBack(client, slug, note);
        if (rolledBack) mayLeave = false;
        throw new LineItemRefused(i, err, rolledBack);
      }
    }
    const plan = await client.call('getCampaignPlan', { params }, { signal: opts.signal });
    mayLeave = false;
    return plan;
  } finally {
    if (!mayLeave) markers?.release(slug);
  }
}

/**
 * A killed run of this slug left its marker: if the plan on the service is
 * provably its draft, delete it (at the revision read) so this run applies
 * the file anew; otherwise leave it, and the create's 409 explains.
 */
async function replaceLeftover(client: ApiClient, doc: PlanDocument, m: PlanMarker, note: (m: string) => void, signal?: AbortSignal): Promise<void> {
  const slug = doc.plan.slug;
  let plan: Plan;
  try {
    plan = await checkAnswer('planLeftover', await client.call('getCampaignPlan', { params: { slug } }, { signal }));
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return; // that run left nothing (or it was cleaned up)
    throw err;
  }
  // Checked above (planLeftover): whether it is that run's draft, and the revision the delete below is made at.
  if (!isLeftoverOf(plan, m, doc)) return;
  const started = new Date(m.startedAt).toISOString();
  note(`plan ${slug} is the draft an interrupted \`adops plans apply\` left (pid ${m.pid}, started ${started}); deleting it to apply this file anew`);
  await client.call('deleteCampaignPlan', { params: { slug }, query: { revision: String(plan.revision) } }, { signal });
}

export function isLeftoverOf(plan: Plan, m: PlanMarker, doc: PlanDocument): boolean {
  if (plan.status !== 'draft' || typeof plan.createdAt !== 'number') return false;
  if (m.planCreatedAt !== undefined) return plan.createdAt === m.planCreatedAt;
  // The create's answer never arrived: created after that run began, and holding what this file says.
  return (
    plan.createdAt >= m.startedAt - CLOCK_SKEW_MS && Object.entries(doc.plan).every(([k, v]) => (v === null || typeof v !== 'object' ? plan[k] === v : true))
  );
}

function conflictAdvice(slug: string, leftover: PlanMarker | undefined): string {
  const clean = `look at it with \`${commandLine('getCampaignPlan', { slug })}\`; if it is not wanted, \`${commandLine('deleteCampaignPlan', { slug })}\` and apply again`;
  return leftover
    ? `plan ${slug} exists. An earlier \`adops plans apply\` of it from here was interrupted (pid ${leftover.pid}), but this plan cannot be proven to be what it left (approved, changed, or created by someone else): ${clean}`
    : `plan ${slug} already exists (a plan is created once; to change it use \`${commandName('updateCampaignPlan')}\`): ${clean}`;
}

/** Deletes the plan this run created. Without the run's signal: an interrupted apply still cleans up. */
async function rollBack(client: ApiClient, slug: string, note: (m: string) => void): Promise<boolean> {
  try {
    await client.call('deleteCampaignPlan', { params: { slug } });
    note(`deleted plan ${slug} again: nothing of this apply is left`);
    return true;
  } catch (err) {
    note(
      `could not delete plan ${slug} (${err instanceof Error ? err.message : String(err)}); it is a draft: delete it with \`${commandLine('deleteCampaignPlan', { slug })}\``,
    );
    return false;
  }
}
