// Each noun of the service, declared once: the field that identifies a row and
// the one a person recognises it by, the operations that answer its rows (its
// `--fields` paths are derived from their response schemas at `npm run gen`,
// never copied: ./generated/resource-fields.json), the columns a table shows
// first, how an edit reads and writes it, how a destructive command names it
// and where completion lists its ids. Plain data keyed by the nouns the
// commands name as their `resource`, so the CLI reads it on any path without
// zod, and the sandbox could read it too (it imports nothing but the table).
import type { AnswerViewName } from './answer-views.js';
import type { OperationId } from './operations.js';

/** How `adops <noun> edit` reads and writes a row that carries a `revision`. */
export interface EditSpec {
  /** The update operation (the write, at the revision read). */
  update: OperationId;
  /** The GET answering the row, or its parent's (a Line Item is read through its plan). */
  read: OperationId;
  /** What the edit reads of `read`'s answer, and of `update`'s (the revision the next write is made at): checked first. */
  views: { read: AnswerViewName; written: AnswerViewName };
  /** When `read` answers the parent: the array holding the rows, matched on the noun's id field and path parameter. */
  within?: string;
  /** Fields an editor shows as markdown blocks (multi-line prose); the others are `field: value` lines. */
  blocks: readonly string[];
  /** Fields the update accepts that an editor does not offer (a state change is its own command). */
  notEditable: readonly string[];
  /** The row changes only while the read answer's `field` is `value` (an approved plan freezes its Line Items too); `owner` and `rule` word the refusal. */
  onlyWhile?: { field: string; value: string; owner: string; rule: string };
}

/** Where completion and the pickers list a noun's ids (the id field, or `field`), under which words. */
export interface CompletionSpec {
  /** The kind's word (the completion cache's key, `adops __complete`'s answer). */
  kind: string;
  list: OperationId;
  /** The field listed, when not the noun's id field (an advertiser is listed through its campaigns). */
  field?: string;
  limit: number;
  pages: number;
  /** Command groups whose `<slug>`/`<id>` argument is one of these (`skills get <slug>`). */
  groups?: readonly string[];
  /** Argument names that are one of these wherever they appear (`<advertiser>`). */
  args?: readonly string[];
  /** Long flags whose value is one of these wherever they appear (`--live <advertiser>`). */
  flags?: readonly string[];
}

/**
 * An Observe entity's commands (`adops observe <word> list|get`): the stored list, the live list
 * (`--live <advertiser>`) and the live single read, and the words its help uses.
 */
export interface ObserveSpec {
  /** The CLI word of its group: `adops observe ad-groups`. */
  word: string;
  /** For help: 'ad groups' (the singular is the noun's `noun`). */
  plural: string;
  stored: OperationId;
  live: OperationId;
  get: OperationId;
}

export interface Resource {
  /** For messages: 'line item'. */
  noun: string;
  /** The field that identifies a row; a destructive command and completion name it by this. */
  id: string;
  /** The field a person recognises a row by. */
  name?: string;
  /**
   * The operations whose answers carry these rows (a page's `data[]`, or the object itself), besides its
   * `observe` lists (rowOperations); their response schemas give the fields.
   */
  rows: readonly OperationId[];
  /** The table's default columns. */
  columns: readonly string[];
  /** Table columns most wanted first at a narrow width (default: by columnPriority, see tableImportance). */
  importance?: readonly string[];
  /** Numeric fields `--chart` may draw over time. */
  metrics?: readonly string[];
  /** The spec says no other field exists: an unknown `--fields` name is refused before sending. */
  strict?: boolean;
  /** Where other rows refer to it (`campaignId`), and the flag that filters by it (`--campaign`). */
  ref?: { field: string; flag: string };
  edit?: EditSpec;
  /** Delete operations whose prompt names the row by `name`, read first with `get` (an opaque id says nothing to a person). */
  namedOnDelete?: { delete: OperationId; get: OperationId };
  completion?: CompletionSpec;
  /** Its `adops observe` group, for the Observe entities. */
  observe?: ObserveSpec;
}

/** Money fields: whole units of the row's `currency` (spec: budget, spend, bidAmount; plans' and Line Items' amounts). */
export const MONEY_FIELDS: readonly string[] = ['budget', 'spend', 'amount', 'bidAmount'];

/**
 * A default column's priority when a terminal is too narrow for them all (0 is kept longest): what names
 * the row (its id, then its name), its status, and its money stay; the rest go first, the last of
 * `columns` first. At 80 columns `observe campaigns` keeps id, name, status and budget, and leaves out
 * advertiserId or budgetType instead (issue #29).
 */
export function columnPriority(r: Pick<Resource, 'id' | 'name'>, column: string): number {
  if (column === r.id) return 0;
  if (column === r.name) return 1;
  if (column === 'status' || column === 'state') return 2;
  if (MONEY_FIELDS.includes(column)) return 3;
  return 4;
}

/** A noun's table columns most wanted first: its own `importance`, else its columns by columnPriority (ties in table order). */
export function tableImportance(r: Resource): readonly string[] {
  return (
    r.importance ??
    r.columns
      .map((c, i) => [columnPriority(r, c), i, c] as const)
      .sort((a, b) => a[0] - b[0] || a[1] - b[1])
      .map(([, , c]) => c)
  );
}

const ENTITY_COLUMNS = ['id', 'name', 'provider', 'status'] as const;
const PLAN_DRAFT = { field: 'status', value: 'draft', owner: 'plan', rule: 'only a draft plan and its Line Items change' } as const;

export const RESOURCES = {
  advertiser: {
    noun: 'advertiser',
    id: 'advertiserId',
    rows: [],
    columns: [],
    ref: { field: 'advertiserId', flag: 'advertiser' },
    // Distinct advertiserId of the stored reads (the service has no list of advertisers).
    completion: { kind: 'advertiser', list: 'listCampaigns', limit: 500, pages: 2, args: ['advertiser'], flags: ['advertiser', 'live', 'register'] },
  },
  campaign: {
    noun: 'campaign',
    id: 'id',
    name: 'name',
    rows: [], // and its observe lists
    columns: [...ENTITY_COLUMNS, 'advertiserId', 'budget', 'budgetType', 'objective', 'updatedAt'],
    strict: true,
    ref: { field: 'campaignId', flag: 'campaign' },
    observe: { word: 'campaigns', plural: 'campaigns', stored: 'listCampaigns', live: 'listLiveCampaigns', get: 'getLiveCampaign' },
  },
  adGroup: {
    noun: 'ad group',
    id: 'id',
    name: 'name',
    rows: [], // and its observe lists
    columns: [...ENTITY_COLUMNS, 'campaignId', 'budget', 'budgetLevel', 'bidStrategy', 'updatedAt'],
    strict: true,
    ref: { field: 'adGroupId', flag: 'ad-group' },
    observe: { word: 'ad-groups', plural: 'ad groups', stored: 'listAdGroups', live: 'listLiveAdGroups', get: 'getLiveAdGroup' },
  },
  ad: {
    noun: 'ad',
    id: 'id',
    name: 'name',
    rows: [], // and its observe lists
    columns: [...ENTITY_COLUMNS, 'advertiserId', 'adGroupId', 'campaignId', 'updatedAt'],
    observe: { word: 'ads', plural: 'ads', stored: 'listAds', live: 'listLiveAds', get: 'getLiveAd' },
  },
  creative: {
    noun: 'creative',
    id: 'id',
    name: 'name',
    rows: [], // and its observe lists
    columns: [...ENTITY_COLUMNS, 'advertiserId', 'title', 'callToAction'],
    observe: { word: 'creatives', plural: 'creatives', stored: 'listCreatives', live: 'listLiveCreatives', get: 'getLiveCreative' },
  },
  assetGroup: {
    noun: 'asset group',
    id: 'id',
    name: 'name',
    rows: [], // and its observe lists
    columns: [...ENTITY_COLUMNS, 'advertiserId', 'campaignId', 'finalUrls'],
    observe: { word: 'asset-groups', plural: 'asset groups', stored: 'listAssetGroups', live: 'listLiveAssetGroups', get: 'getLiveAssetGroup' },
  },
  insight: {
    noun: 'insight',
    id: 'entityId',
    rows: ['listInsights'],
    columns: ['dateStart', 'dateStop', 'advertiserId', 'provider', 'entityType', 'entityId', 'spend', 'impressions', 'clicks', 'reach', 'conversions'],
    metrics: ['spend', 'impressions', 'clicks', 'reach', 'conversions'],
    // The numbers are why one reads Insights; the entity says whose they are, the date when.
    importance: ['entityId', 'spend', 'impressions', 'clicks', 'conversions', 'reach', 'dateStart', 'provider', 'dateStop', 'entityType', 'advertiserId'],
  },
  /** A live single read: the provider's own payload, its own keys. */
  livePayload: { noun: 'payload', id: 'id', rows: [], columns: [] },
  mutation: {
    noun: 'mutation',
    id: 'id',
    rows: ['listMutations', 'getMutation', 'createMutation'],
    columns: ['id', 'action', 'state', 'target.type', 'target.id', 'advertiserId', 'provider', 'createdAt'],
    completion: { kind: 'mutation', list: 'listMutations', limit: 100, pages: 1, groups: ['mutations'], flags: ['mutation-id'] },
  },
  asset: {
    noun: 'asset',
    id: 'id',
    name: 'filename',
    rows: ['listAssets', 'getAsset', 'reserveAssetUpload'],
    columns: ['id', 'filename', 'state', 'kind', 'mimeType', 'sizeBytes', 'width', 'height', 'updatedAt'],
    edit: { update: 'renameAsset', read: 'getAsset', views: { read: 'assetRevision', written: 'assetRenamed' }, blocks: [], notEditable: [] },
    namedOnDelete: { delete: 'deleteAsset', get: 'getAsset' },
    completion: { kind: 'asset', list: 'listAssets', limit: 100, pages: 1, groups: ['assets'] },
  },
  assetRegistration: {
    noun: 'registration',
    id: 'id',
    rows: ['registerAsset'],
    columns: ['id', 'assetId', 'advertiserId', 'provider', 'providerAssetId', 'createdAt'],
  },
  skill: {
    noun: 'skill',
    id: 'slug',
    name: 'name',
    rows: ['listSkills', 'getSkill'],
    columns: ['slug', 'name', 'source', 'catalogVersion', 'revision', 'updatedAt', 'description'],
    edit: { update: 'updateSkill', read: 'getSkill', views: { read: 'skillRevision', written: 'skillUpdated' }, blocks: ['body'], notEditable: [] },
    completion: { kind: 'skill', list: 'listSkills', limit: 100, pages: 1, groups: ['skills'] },
  },
  catalogSkill: {
    noun: 'catalog skill',
    id: 'catalogSlug',
    name: 'name',
    rows: ['listSkillCatalog'],
    columns: ['catalogSlug', 'name', 'version', 'updatedAt', 'description'],
  },
  brand: {
    noun: 'brand',
    id: 'slug',
    name: 'name',
    rows: ['getBrand', 'listBrands'],
    columns: ['slug', 'name', 'revision', 'updatedAt', 'description'],
    edit: {
      update: 'updateBrand',
      read: 'getBrand',
      views: { read: 'brandRevision', written: 'brandUpdated' },
      blocks: ['identity', 'voice', 'guidelines', 'messaging'],
      notEditable: [],
    },
    completion: { kind: 'brand', list: 'listBrands', limit: 100, pages: 1, groups: ['brands'], args: ['brand'] },
  },
  brandAdvertiser: {
    noun: 'advertiser',
    id: 'advertiserId',
    name: 'name',
    rows: ['listBrandAdvertisers', 'attachBrandAdvertiser'],
    columns: ['advertiserId', 'name', 'provider', 'currency', 'attachedAt'],
  },
  persona: {
    noun: 'persona',
    id: 'slug',
    name: 'name',
    rows: ['listPersonas', 'getPersona'],
    columns: ['brandSlug', 'slug', 'name', 'channels', 'revision', 'updatedAt'],
    edit: {
      update: 'updatePersona',
      read: 'getPersona',
      views: { read: 'personaRevision', written: 'personaUpdated' },
      blocks: ['demographics'],
      notEditable: [],
    },
  },
  document: {
    noun: 'document',
    id: 'documentId',
    name: 'filename',
    rows: ['listDocuments', 'getDocument', 'reserveDocument'],
    columns: ['documentId', 'filename', 'contentType', 'sizeBytes', 'state', 'updatedAt'],
    namedOnDelete: { delete: 'deleteDocument', get: 'getDocument' },
  },
  campaignPlan: {
    noun: 'plan',
    id: 'slug',
    name: 'name',
    rows: ['listCampaignPlans', 'getCampaignPlan'],
    columns: ['slug', 'name', 'status', 'budget', 'startDate', 'endDate', 'lineItemCount', 'updatedAt'],
    edit: {
      update: 'updateCampaignPlan',
      read: 'getCampaignPlan',
      views: { read: 'planRevision', written: 'planUpdated' },
      blocks: [],
      notEditable: ['status'],
      onlyWhile: PLAN_DRAFT,
    },
    completion: { kind: 'plan', list: 'listCampaignPlans', limit: 100, pages: 1, groups: ['plans'], args: ['plan'] },
  },
  lineItem: {
    noun: 'line item',
    id: 'lineItemId',
    name: 'name',
    rows: ['addLineItem', 'updateLineItem'],
    columns: ['lineItemId', 'name', 'provider', 'advertiserId', 'budget', 'budgetType', 'startDate', 'endDate', 'lastValidation.valid'],
    // A Line Item has no GET of its own: it is read through its plan's, so "read again after a 409" costs one plan read.
    edit: {
      update: 'updateLineItem',
      read: 'getCampaignPlan',
      views: { read: 'lineItemRevision', written: 'lineItemUpdated' },
      within: 'lineItems',
      blocks: [],
      notEditable: [],
      onlyWhile: PLAN_DRAFT,
    },
  },
  validation: { noun: 'validation', id: 'lineItemId', rows: ['validateLineItem'], columns: ['lineItemId', 'valid', 'problems', 'checkedAt'] },
  readiness: { noun: 'readiness', id: 'lineItemId', rows: ['getLineItemReadiness'], columns: ['lineItemId', 'ready', 'missing', 'checkedAt'] },
  execution: {
    noun: 'execution',
    id: 'executionId',
    rows: ['recordLineItemExecution'],
    columns: ['executionId', 'provider', 'entityType', 'entityId', 'mutationId', 'recordedAt'],
  },
} as const satisfies Readonly<Record<string, Resource>>;

export type ResourceName = keyof typeof RESOURCES;

/** The nouns as the Resource shape, for the derivations that read every noun alike. */
const DECLARED: Readonly<Record<ResourceName, Resource>> = RESOURCES;

const isResourceName = (name: string): name is ResourceName => Object.hasOwn(RESOURCES, name);

/** The noun named by a command's `resource` (undefined: a CLI-local view or none). */
export function resourceOf(name: string): Resource | undefined {
  return isResourceName(name) ? DECLARED[name] : undefined;
}

/** The operations whose answers carry a noun's rows: its `rows`, then its observe lists (stored, live). */
export function rowOperations(r: Resource): OperationId[] {
  return [...r.rows, ...(r.observe ? [r.observe.stored, r.observe.live] : [])];
}

/** The `observe` block of each noun that has one, its operation ids literal (the sandbox's Observe routes are keyed by them). */
export type ObserveBlock = { [K in ResourceName]: (typeof RESOURCES)[K] extends { observe: infer O } ? O : never }[ResourceName];

/** The Observe entities' blocks, in the nouns' order. */
export function observeBlocks(): ObserveBlock[] {
  return Object.values(RESOURCES).flatMap((r) => ('observe' in r ? [r.observe] : []));
}

/** Every declared noun with its name, for the derivations (flags, completion, edits). */
export function resourceEntries(): Array<[ResourceName, Resource]> {
  return Object.entries(DECLARED).flatMap(([name, r]): Array<[ResourceName, Resource]> => (isResourceName(name) ? [[name, r]] : []));
}
