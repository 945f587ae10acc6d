// The operation table: every operation of the spec's operation list, once.
// One source for routes (sandbox), subcommands (CLI), OpenAPI and the coverage
// tests. Plain data (no zod) so the CLI can read it on its fast path; the zod
// schemas of each operation live in ./schemas/<api>.ts keyed by `id`.
import type { Permission } from './ids.js';

export type ApiName = 'observe' | 'mutations' | 'context' | 'assets';
export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';
/** What an operation does, so generic code (paging, confirmation prompts) can treat kinds alike. */
export type OperationKind = 'list' | 'get' | 'create' | 'update' | 'delete' | 'action';

/** One entry of the table; its id is the key. */
export interface OperationSpec {
  api: ApiName;
  method: HttpMethod;
  /** Path template with {param} segments, as in the spec. */
  path: string;
  permission: Permission;
  kind: OperationKind;
  summary: string;
  /** Observe: the path names the advertiser and the provider is asked now. */
  live?: boolean;
}

/**
 * Every operation, keyed by its id. `as const` keeps each path and method
 * literal (the typed client derives its input from them); `satisfies` checks
 * each entry without widening it.
 */
export const OPERATION_TABLE = {
  // Observe: stored reads (no advertiser segment) and live reads (advertiser in the path).
  listInsights: { api: 'observe', method: 'GET', path: '/observe/insights', permission: 'observe:read', kind: 'list', summary: 'Stored read of Insights' },
  listCampaigns: { api: 'observe', method: 'GET', path: '/observe/campaigns', permission: 'observe:read', kind: 'list', summary: 'Stored read of campaigns' },
  listLiveCampaigns: {
    api: 'observe',
    method: 'GET',
    path: '/observe/{advertiserId}/campaigns',
    permission: 'observe:read',
    kind: 'list',
    summary: "Live read of an advertiser's campaigns",
    live: true,
  },
  getLiveCampaign: {
    api: 'observe',
    method: 'GET',
    path: '/observe/{advertiserId}/campaigns/{id}',
    permission: 'observe:read',
    kind: 'get',
    summary: 'Live read of one campaign',
    live: true,
  },
  listAdGroups: { api: 'observe', method: 'GET', path: '/observe/ad-groups', permission: 'observe:read', kind: 'list', summary: 'Stored read of ad groups' },
  listLiveAdGroups: {
    api: 'observe',
    method: 'GET',
    path: '/observe/{advertiserId}/ad-groups',
    permission: 'observe:read',
    kind: 'list',
    summary: 'Live read of ad groups',
    live: true,
  },
  getLiveAdGroup: {
    api: 'observe',
    method: 'GET',
    path: '/observe/{advertiserId}/ad-groups/{id}',
    permission: 'observe:read',
    kind: 'get',
    summary: 'Live read of one ad group',
    live: true,
  },
  listAds: { api: 'observe', method: 'GET', path: '/observe/ads', permission: 'observe:read', kind: 'list', summary: 'Stored read of ads' },
  listLiveAds: {
    api: 'observe',
    method: 'GET',
    path: '/observe/{advertiserId}/ads',
    permission: 'observe:read',
    kind: 'list',
    summary: 'Live read of ads',
    live: true,
  },
  getLiveAd: {
    api: 'observe',
    method: 'GET',
    path: '/observe/{advertiserId}/ads/{id}',
    permission: 'observe:read',
    kind: 'get',
    summary: 'Live read of one ad',
    live: true,
  },
  listCreatives: { api: 'observe', method: 'GET', path: '/observe/creatives', permission: 'observe:read', kind: 'list', summary: 'Stored read of creatives' },
  listLiveCreatives: {
    api: 'observe',
    method: 'GET',
    path: '/observe/{advertiserId}/creatives',
    permission: 'observe:read',
    kind: 'list',
    summary: 'Live read of creatives',
    live: true,
  },
  getLiveCreative: {
    api: 'observe',
    method: 'GET',
    path: '/observe/{advertiserId}/creatives/{id}',
    permission: 'observe:read',
    kind: 'get',
    summary: 'Live read of one creative',
    live: true,
  },
  listAssetGroups: {
    api: 'observe',
    method: 'GET',
    path: '/observe/asset-groups',
    permission: 'observe:read',
    kind: 'list',
    summary: 'Stored read of asset groups',
  },
  listLiveAssetGroups: {
    api: 'observe',
    method: 'GET',
    path: '/observe/{advertiserId}/asset-groups',
    permission: 'observe:read',
    kind: 'list',
    summary: 'Live read of asset groups',
    live: true,
  },
  getLiveAssetGroup: {
    api: 'observe',
    method: 'GET',
    path: '/observe/{advertiserId}/asset-groups/{id}',
    permission: 'observe:read',
    kind: 'get',
    summary: 'Live read of one asset group',
    live: true,
  },

  // Mutations.
  listMutations: { api: 'mutations', method: 'GET', path: '/mutations', permission: 'mutation:read', kind: 'list', summary: 'List mutation history' },
  createMutation: { api: 'mutations', method: 'POST', path: '/mutations', permission: 'mutation:write', kind: 'create', summary: 'Start a mutation' },
  getMutation: { api: 'mutations', method: 'GET', path: '/mutations/{id}', permission: 'mutation:write', kind: 'get', summary: 'Read a mutation' },

  // Context: Skills and the Skill Catalog.
  listSkills: { api: 'context', method: 'GET', path: '/context/skills', permission: 'skill:read', kind: 'list', summary: 'List Skills' },
  createSkill: { api: 'context', method: 'POST', path: '/context/skills', permission: 'skill:write', kind: 'create', summary: 'Create a Skill' },
  getSkill: { api: 'context', method: 'GET', path: '/context/skills/{slug}', permission: 'skill:read', kind: 'get', summary: 'Get a Skill' },
  updateSkill: { api: 'context', method: 'PATCH', path: '/context/skills/{slug}', permission: 'skill:write', kind: 'update', summary: 'Update a Skill' },
  deleteSkill: { api: 'context', method: 'DELETE', path: '/context/skills/{slug}', permission: 'skill:write', kind: 'delete', summary: 'Delete a Skill' },
  reimportSkill: {
    api: 'context',
    method: 'POST',
    path: '/context/skills/{slug}/re-import',
    permission: 'skill:write',
    kind: 'action',
    summary: 'Re-import a Skill',
  },
  listSkillCatalog: {
    api: 'context',
    method: 'GET',
    path: '/context/skill-catalog',
    permission: 'skill:read',
    kind: 'list',
    summary: 'List the Skill Catalog',
  },
  importCatalogSkill: {
    api: 'context',
    method: 'POST',
    path: '/context/skill-catalog/{catalogSlug}/import',
    permission: 'skill:write',
    kind: 'action',
    summary: 'Import a Catalog Skill',
  },

  // Context: Brands, their advertisers, Personas and Documents.
  listBrands: { api: 'context', method: 'GET', path: '/context/brands', permission: 'brand:read', kind: 'list', summary: 'List Brands' },
  createBrand: { api: 'context', method: 'POST', path: '/context/brands', permission: 'brand:write', kind: 'create', summary: 'Create a Brand' },
  getBrand: { api: 'context', method: 'GET', path: '/context/brands/{slug}', permission: 'brand:read', kind: 'get', summary: 'Get a Brand' },
  updateBrand: { api: 'context', method: 'PATCH', path: '/context/brands/{slug}', permission: 'brand:write', kind: 'update', summary: 'Update a Brand' },
  deleteBrand: { api: 'context', method: 'DELETE', path: '/context/brands/{slug}', permission: 'brand:write', kind: 'delete', summary: 'Delete a Brand' },
  listBrandAdvertisers: {
    api: 'context',
    method: 'GET',
    path: '/context/brands/{slug}/advertisers',
    permission: 'brand:read',
    kind: 'list',
    summary: "List a Brand's advertisers",
  },
  attachBrandAdvertiser: {
    api: 'context',
    method: 'POST',
    path: '/context/brands/{slug}/advertisers',
    permission: 'brand:write',
    kind: 'create',
    summary: 'Attach an advertiser',
  },
  detachBrandAdvertiser: {
    api: 'context',
    method: 'DELETE',
    path: '/context/brands/{slug}/advertisers/{advertiserId}',
    permission: 'brand:write',
    kind: 'delete',
    summary: 'Detach an advertiser',
  },
  listPersonas: { api: 'context', method: 'GET', path: '/context/brands/{slug}/personas', permission: 'brand:read', kind: 'list', summary: 'List Personas' },
  createPersona: {
    api: 'context',
    method: 'POST',
    path: '/context/brands/{slug}/personas',
    permission: 'brand:write',
    kind: 'create',
    summary: 'Create a Persona',
  },
  getPersona: {
    api: 'context',
    method: 'GET',
    path: '/context/brands/{slug}/personas/{personaSlug}',
    permission: 'brand:read',
    kind: 'get',
    summary: 'Get a Persona',
  },
  updatePersona: {
    api: 'context',
    method: 'PATCH',
    path: '/context/brands/{slug}/personas/{personaSlug}',
    permission: 'brand:write',
    kind: 'update',
    summary: 'Update a Persona',
  },
  deletePersona: {
    api: 'context',
    method: 'DELETE',
    path: '/context/brands/{slug}/personas/{personaSlug}',
    permission: 'brand:write',
    kind: 'delete',
    summary: 'Delete a Persona',
  },
  listDocuments: { api: 'context', method: 'GET', path: '/context/brands/{slug}/documents', permission: 'brand:read', kind: 'list', summary: 'List documents' },
  reserveDocument: {
    api: 'context',
    method: 'POST',
    path: '/context/brands/{slug}/documents',
    permission: 'brand:write',
    kind: 'create',
    summary: 'Start a document upload (reserve)',
  },
  finalizeDocument: {
    api: 'context',
    method: 'POST',
    path: '/context/brands/{slug}/documents/{documentId}/finalize',
    permission: 'brand:write',
    kind: 'action',
    summary: 'Finalize a document upload',
  },
  getDocument: {
    api: 'context',
    method: 'GET',
    path: '/context/brands/{slug}/documents/{documentId}',
    permission: 'brand:read',
    kind: 'get',
    summary: 'Get a document',
  },
  deleteDocument: {
    api: 'context',
    method: 'DELETE',
    path: '/context/brands/{slug}/documents/{documentId}',
    permission: 'brand:write',
    kind: 'delete',
    summary: 'Delete a document',
  },

  // Context: Campaign Plans and Line Items.
  listCampaignPlans: {
    api: 'context',
    method: 'GET',
    path: '/context/campaign-plans',
    permission: 'campaign_plan:read',
    kind: 'list',
    summary: 'List Campaign Plans',
  },
  createCampaignPlan: {
    api: 'context',
    method: 'POST',
    path: '/context/campaign-plans',
    permission: 'campaign_plan:write',
    kind: 'create',
    summary: 'Create a Campaign Plan',
  },
  getCampaignPlan: {
    api: 'context',
    method: 'GET',
    path: '/context/campaign-plans/{slug}',
    permission: 'campaign_plan:read',
    kind: 'get',
    summary: 'Get a Campaign Plan',
  },
  updateCampaignPlan: {
    api: 'context',
    method: 'PATCH',
    path: '/context/campaign-plans/{slug}',
    permission: 'campaign_plan:write',
    kind: 'update',
    summary: 'Update a Campaign Plan',
  },
  deleteCampaignPlan: {
    api: 'context',
    method: 'DELETE',
    path: '/context/campaign-plans/{slug}',
    permission: 'campaign_plan:write',
    kind: 'delete',
    summary: 'Delete a Campaign Plan',
  },
  approveCampaignPlan: {
    api: 'context',
    method: 'POST',
    path: '/context/campaign-plans/{slug}/approve',
    permission: 'campaign_plan:write',
    kind: 'action',
    summary: 'Approve a Campaign Plan',
  },
  addLineItem: {
    api: 'context',
    method: 'POST',
    path: '/context/campaign-plans/{slug}/line-items',
    permission: 'campaign_plan:write',
    kind: 'create',
    summary: 'Add a Line Item',
  },
  updateLineItem: {
    api: 'context',
    method: 'PATCH',
    path: '/context/campaign-plans/{slug}/line-items/{lineItemId}',
    permission: 'campaign_plan:write',
    kind: 'update',
    summary: 'Update a Line Item',
  },
  deleteLineItem: {
    api: 'context',
    method: 'DELETE',
    path: '/context/campaign-plans/{slug}/line-items/{lineItemId}',
    permission: 'campaign_plan:write',
    kind: 'delete',
    summary: 'Delete a Line Item',
  },
  validateLineItem: {
    api: 'context',
    method: 'POST',
    path: '/context/campaign-plans/{slug}/line-items/{lineItemId}/validate',
    permission: 'campaign_plan:write',
    kind: 'action',
    summary: 'Validate a Line Item',
  },
  getLineItemReadiness: {
    api: 'context',
    method: 'GET',
    path: '/context/campaign-plans/{slug}/line-items/{lineItemId}/readiness',
    permission: 'campaign_plan:read',
    kind: 'get',
    summary: 'Check execution readiness',
  },
  recordLineItemExecution: {
    api: 'context',
    method: 'POST',
    path: '/context/campaign-plans/{slug}/line-items/{lineItemId}/executions',
    permission: 'campaign_plan:write',
    kind: 'create',
    summary: 'Record what a Line Item spawned',
  },

  // Assets.
  listAssets: { api: 'assets', method: 'GET', path: '/assets', permission: 'asset:read', kind: 'list', summary: "List the organization's Assets" },
  reserveAssetUpload: {
    api: 'assets',
    method: 'POST',
    path: '/assets/uploads',
    permission: 'asset:write',
    kind: 'create',
    summary: 'Reserve an Asset and mint an upload URL',
  },
  finalizeAsset: {
    api: 'assets',
    method: 'POST',
    path: '/assets/{id}/finalize',
    permission: 'asset:write',
    kind: 'action',
    summary: 'Finalize an uploaded Asset',
  },
  getAsset: { api: 'assets', method: 'GET', path: '/assets/{id}', permission: 'asset:read', kind: 'get', summary: 'Get one Asset' },
  renameAsset: { api: 'assets', method: 'PATCH', path: '/assets/{id}', permission: 'asset:write', kind: 'update', summary: 'Rename an Asset' },
  deleteAsset: { api: 'assets', method: 'DELETE', path: '/assets/{id}', permission: 'asset:write', kind: 'delete', summary: 'Delete an Asset' },
  registerAsset: {
    api: 'assets',
    method: 'POST',
    path: '/assets/{id}/registrations',
    permission: 'asset:write',
    kind: 'create',
    summary: 'Register an Asset to an advertiser',
  },
} as const satisfies Record<string, OperationSpec>;

export type OperationId = keyof typeof OPERATION_TABLE;

/** An operation with its id (stable operationId, also the OpenAPI operationId). */
export interface OperationDef extends OperationSpec {
  id: OperationId;
}

/** Whether a string names an operation of the table. */
export function isOperationId(id: string): id is OperationId {
  return Object.hasOwn(OPERATION_TABLE, id);
}

const OPERATION_IDS: readonly OperationId[] = Object.keys(OPERATION_TABLE).filter(isOperationId);

/** The table as a list in its order, each entry with its id. */
export const OPERATIONS: readonly OperationDef[] = OPERATION_IDS.map((id): OperationDef => ({ id, ...OPERATION_TABLE[id] }));

export const OPERATION_BY_ID: ReadonlyMap<string, OperationDef> = new Map(OPERATIONS.map((o) => [o.id, o]));

export function operation(id: string): OperationDef {
  const found = OPERATION_BY_ID.get(id);
  if (!found) throw new Error(`unknown operation id: ${id}`);
  return found;
}

/** Path params of a template, in order: '/a/{x}/b/{y}' -> ['x', 'y']. */
export function pathParams(template: string): string[] {
  return [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
}

/**
 * Fill a template, percent-encoding each value so '../', '?' or '#' cannot
 * reach another path or query. encodeURIComponent leaves '.' alone, so an id
 * of '.' or '..' would be a dot segment (`GET /assets/..` is `GET /`): those
 * are sent as '%2E' and '%2E%2E', one literal segment.
 */
export function fillPath(template: string, params: Record<string, string>): string {
  return template.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined || value === '') throw new Error(`missing path parameter: ${name}`);
    if (value === '.' || value === '..') return value.replace(/\./g, '%2E');
    return encodeURIComponent(value);
  });
}

/** The operation a method and concrete path name ('/assets/ast_1' -> getAsset), literal segments first. */
export function matchOperation(method: string, path: string): OperationDef | undefined {
  const segments = path.replace(/\/+$/, '').split('/');
  let best: { op: OperationDef; literals: number } | undefined;
  for (const op of OPERATIONS) {
    if (op.method !== method.toUpperCase()) continue;
    const template = op.path.split('/');
    if (template.length !== segments.length) continue;
    let literals = 0;
    const fits = template.every((t, i) => {
      if (t.startsWith('{')) return segments[i] !== '';
      literals++;
      return t === segments[i];
    });
    if (fits && (!best || literals > best.literals)) best = { op, literals };
  }
  return best?.op;
}
