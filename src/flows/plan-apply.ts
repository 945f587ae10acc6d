// Create a Campaign Plan and its Line Items from one document, all or
// nothing: if the service refuses a Line Item (or the run is interrupted)
// after the plan was created, the plan this run created is deleted again, so
// a corrected file can simply be applied again. A plan that already exists is
// refused by the service (409 slug_conflict) before anything else is sent.
// No terminal code: progress goes to onNote.
import type { ApiClient } from '../client/http.js';
import { fillPath, operation } from '../contract/operations.js';

export interface PlanDocument {
  /** The plan's own fields (createCampaignPlan's body). */
  plan: Record<string, unknown> & { slug: string };
  /** Each one addLineItem's body, added in order. */
  lineItems: Array<Record<string, unknown>>;
}

export interface ApplyOptions {
  signal?: AbortSignal;
  onNote?: (message: string) => void;
}

export class LineItemRefused extends Error {
  override readonly name = 'LineItemRefused';
  constructor(readonly index: number, override readonly cause: unknown, readonly rolledBack: boolean) {
    super(`line item ${index + 1} was refused`);
  }
}

export async function applyPlan(client: ApiClient, doc: PlanDocument, opts: ApplyOptions = {}): Promise<Record<string, unknown>> {
  const note = opts.onNote ?? (() => {});
  const slug = doc.plan.slug;
  const at = (id: string, params: Record<string, string> = {}) => {
    const op = operation(id);
    return { method: op.method, path: fillPath(op.path, { slug, ...params }) };
  };
  const created = (await client.request<{ revision: number }>({ ...at('createCampaignPlan'), json: doc.plan, signal: opts.signal })).body;
  note(`created plan ${slug} (revision ${created.revision})`);
  for (const [i, item] of doc.lineItems.entries()) {
    try {
      const added = (await client.request<{ lineItemId: string }>({ ...at('addLineItem'), json: item, signal: opts.signal })).body;
      note(`added line item ${added.lineItemId} (${String(item.name)})`);
    } catch (err) {
      throw new LineItemRefused(i, err, await rollBack(client, at('deleteCampaignPlan'), slug, note));
    }
  }
  return (await client.request<Record<string, unknown>>({ ...at('getCampaignPlan'), signal: opts.signal })).body;
}

/** Deletes the plan this run created. Without the run's signal: an interrupted apply still cleans up. */
async function rollBack(client: ApiClient, del: { method: string; path: string }, slug: string, note: (m: string) => void): Promise<boolean> {
  try {
    await client.request({ ...del });
    note(`deleted plan ${slug} again: nothing of this apply is left`);
    return true;
  } catch (err) {
    note(`could not delete plan ${slug} (${(err as Error).message}); it is a draft: delete it with \`adops plans delete ${slug} --yes\``);
    return false;
  }
}
