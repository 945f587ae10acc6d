// What each step of a flow reads of a success answer, and so what its
// judgement rests on ("in sync", "in band", "ready", "already there", a row
// started): one view per step, naming the operation and the fields read. The
// one validator engine compiles each view (`npm run gen` →
// ./generated/response-validators.js): the answer's schema, projected onto
// these fields, each checked whole (type, null, enum, format, bounds; its
// nested fields too), required as the contract requires it. Nothing else of
// the answer is checked: a flow stays a tolerant reader of what it does not
// read (the real service may differ in fields this CLI never looks at, and may
// add fields), and a display command checks nothing (it shows what came).
//
// A read is a path: `state`, `target.id`, `data[].status` (each row of a
// page), `lineItems[].executions[].entityId`. A trailing `?` reads a field
// only when it is there (`uploadExpiresAt?`: checked if present, its absence
// is allowed). Plain data: src/client/answer-check.ts and the generator read it.
import type { OperationId } from './operations.js';

export interface AnswerView {
  op: OperationId;
  reads: readonly string[];
}

/** The live list of each type a Line Item can spawn: what `plans verify` compares, per type. */
const LIVE_ENTITY_READS = ['data[].id', 'data[].status'] as const;
const LIVE_BUDGET_READS = [...LIVE_ENTITY_READS, 'data[].currency', 'data[].budget', 'data[].budgetLevel', 'data[].budgetType'] as const;
/** What drift compares: every field of DRIFT_FIELDS a row of the level carries, its id, name and provider. */
const DRIFT_READS = ['data[].id', 'data[].name', 'data[].provider', 'data[].status', 'data[].budget', 'data[].budgetType', 'data[].bidStrategy'] as const;
/** What an inverse is read from (mutation-actions.ts inverseOf), and a preview's current value. */
const UNDO_READS = [...DRIFT_READS, 'data[].advertiserId', 'data[].type', 'data[].currency', 'data[].createdAt', 'data[].budgetLevel'] as const;
/** A plan's Line Items as plans verify and plans pacing judge them. */
const PLAN_CHECK_READS = [
  'slug',
  'currency',
  'lineItems[].lineItemId',
  'lineItems[].name',
  'lineItems[].advertiserId',
  'lineItems[].budget',
  'lineItems[].budgetType',
  'lineItems[].startDate',
  'lineItems[].endDate',
  'lineItems[].executions[].entityType',
  'lineItems[].executions[].entityId',
] as const;
const UPLOADED_ASSET_READS = ['id', 'state', 'sizeBytes?', 'sha256?'] as const;
const UPLOADED_DOCUMENT_READS = ['documentId', 'state', 'sizeBytes?'] as const;

export const ANSWER_VIEWS = {
  // Mutations: a started change is known by its id (journal, poll); a poll decides on the state.
  mutationStarted: { op: 'createMutation', reads: ['id', 'state?'] },
  mutationPolled: { op: 'getMutation', reads: ['id', 'state'] },

  // Uploads: the bytes go to uploadUrl and the row is found again by its id; ready or not is read from the
  // state, and what landed is compared with the file (its size; its checksum where the service shows one).
  assetReserved: { op: 'reserveAssetUpload', reads: ['id', 'uploadUrl', 'uploadExpiresAt?'] },
  assetFinalized: { op: 'finalizeAsset', reads: UPLOADED_ASSET_READS },
  assetRead: { op: 'getAsset', reads: UPLOADED_ASSET_READS },
  documentReserved: { op: 'reserveDocument', reads: ['documentId', 'uploadUrl', 'uploadExpiresAt?'] },
  documentFinalized: { op: 'finalizeDocument', reads: UPLOADED_DOCUMENT_READS },
  documentRead: { op: 'getDocument', reads: UPLOADED_DOCUMENT_READS },
  /** `assets sync`: a file is "already there" when a ready Asset of its name holds its size (and checksum). */
  assetsListed: { op: 'listAssets', reads: ['data[].id', 'data[].filename', 'data[].state', 'data[].sizeBytes', 'data[].sha256?'] },

  // Plans: the next write is made at the revision answered; a Line Item added is known by its id.
  planCreated: { op: 'createCampaignPlan', reads: ['slug', 'revision', 'createdAt?'] },
  lineItemAdded: { op: 'addLineItem', reads: ['lineItemId'] },
  /** `plans apply` judging whether a plan is the draft an interrupted run left (then deleted at its revision). */
  planLeftover: {
    op: 'getCampaignPlan',
    reads: ['slug', 'revision', 'status', 'createdAt', 'name', 'description', 'currency', 'budget', 'startDate', 'endDate'],
  },
  /** `plans approve` without --revision: approves the revision read. */
  planToApprove: { op: 'getCampaignPlan', reads: ['revision', 'status'] },
  planVerified: { op: 'getCampaignPlan', reads: [...PLAN_CHECK_READS, 'lineItems[].objective'] },
  planPaced: { op: 'getCampaignPlan', reads: PLAN_CHECK_READS },
  readiness: { op: 'getLineItemReadiness', reads: ['ready', 'missing?'] },
  validation: { op: 'validateLineItem', reads: ['valid', 'problems'] },

  // Revision-safe edits: the row is read, changed and written at the revision it was read at.
  skillRevision: { op: 'getSkill', reads: ['revision'] },
  brandRevision: { op: 'getBrand', reads: ['revision'] },
  personaRevision: { op: 'getPersona', reads: ['revision'] },
  planRevision: { op: 'getCampaignPlan', reads: ['revision', 'status'] },
  lineItemRevision: { op: 'getCampaignPlan', reads: ['status', 'lineItems[].lineItemId', 'lineItems[].revision'] },
  assetRevision: { op: 'getAsset', reads: ['revision'] },
  skillUpdated: { op: 'updateSkill', reads: ['revision'] },
  brandUpdated: { op: 'updateBrand', reads: ['revision'] },
  personaUpdated: { op: 'updatePersona', reads: ['revision'] },
  planUpdated: { op: 'updateCampaignPlan', reads: ['revision'] },
  lineItemUpdated: { op: 'updateLineItem', reads: ['revision'] },
  assetRenamed: { op: 'renameAsset', reads: ['revision'] },

  // plans verify: each executed entity read live and compared with its Line Item.
  liveCampaignsVerified: { op: 'listLiveCampaigns', reads: [...LIVE_BUDGET_READS, 'data[].objective'] },
  liveAdGroupsVerified: { op: 'listLiveAdGroups', reads: LIVE_BUDGET_READS },
  liveAdsVerified: { op: 'listLiveAds', reads: LIVE_ENTITY_READS },
  liveCreativesVerified: { op: 'listLiveCreatives', reads: LIVE_ENTITY_READS },
  liveAssetGroupsVerified: { op: 'listLiveAssetGroups', reads: LIVE_ENTITY_READS },

  // mutations apply --preview / --undo-file: the target read live before a change, every field its inverse restores
  // (src/contract/mutation-actions.ts inverseOf): which entity the row is, whether it is live, and the values.
  liveCampaignsUndo: { op: 'listLiveCampaigns', reads: UNDO_READS },
  liveAdGroupsUndo: { op: 'listLiveAdGroups', reads: [...UNDO_READS, 'data[].bidAmount'] },

  // plans pacing: spend by day of the executed entities, counted once (an ad group inside an executed campaign).
  adGroupParents: { op: 'listAdGroups', reads: ['data[].id', 'data[].campaignId'] },
  adParents: { op: 'listAds', reads: ['data[].id', 'data[].campaignId', 'data[].adGroupId'] },
  spendByDay: { op: 'listInsights', reads: ['data[].dateStart', 'data[].dateStop', 'data[].level', 'data[].entityId', 'data[].currency', 'data[].spend'] },

  // observe drift: the stored and the live copy, field by field.
  storedCampaignsDrift: { op: 'listCampaigns', reads: DRIFT_READS },
  liveCampaignsDrift: { op: 'listLiveCampaigns', reads: DRIFT_READS },
  storedAdGroupsDrift: { op: 'listAdGroups', reads: [...DRIFT_READS, 'data[].bidAmount'] },
  liveAdGroupsDrift: { op: 'listLiveAdGroups', reads: [...DRIFT_READS, 'data[].bidAmount'] },
} as const satisfies Record<string, AnswerView>;

export type AnswerViewName = keyof typeof ANSWER_VIEWS;

/** What a wait reads of each poll, by the operation polled (`--wait` of a table command): its state, checked. */
export const POLL_VIEWS: Partial<Record<OperationId, AnswerViewName>> = {
  getMutation: 'mutationPolled',
  getAsset: 'assetRead',
  getDocument: 'documentRead',
  getLineItemReadiness: 'readiness',
};
/** The operation a view reads. */
export type ViewOperation<V extends AnswerViewName> = (typeof ANSWER_VIEWS)[V]['op'];

export const isAnswerView = (name: string): name is AnswerViewName => Object.hasOwn(ANSWER_VIEWS, name);

/** One segment of a read: a field, whether it is a list whose every item is read further, and whether it may be absent. */
export interface ReadStep {
  field: string;
  each: boolean;
}

/** `lineItems[].executions[].entityId?` → its steps and whether the last may be absent. */
export function parseRead(read: string): { steps: ReadStep[]; optional: boolean } {
  const optional = read.endsWith('?');
  const steps = (optional ? read.slice(0, -1) : read).split('.').map((s) => ({ field: s.replace(/\[\]$/, ''), each: s.endsWith('[]') }));
  return { steps, optional };
}
