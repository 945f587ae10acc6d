// Per-resource knowledge for output: the table's default columns and the
// fields `--fields` may name. Where the spec lists a resource's fields we
// check names strictly; where it says "not shown", any name is accepted
// (the real service may send more than we know).

export interface ResourceView {
  columns: readonly string[];
  /** Known fields; undefined means "not shown by the spec": accept any. */
  fields?: readonly string[];
}

const COMMON_ROW = [
  'advertiserId', 'id', 'name', 'path', 'provider', 'type', 'status', 'currency', 'createdAt', 'updatedAt',
  'deletedAt', 'createdTime', 'updatedTime', 'budget', 'budgetLevel', 'budgetType', 'bidStrategy',
] as const;

export const RESOURCES: Record<string, ResourceView> = {
  campaign: {
    columns: ['id', 'name', 'provider', 'status', 'advertiserId', 'budget', 'budgetType', 'currency'],
    fields: [...COMMON_ROW, 'objective', 'adsetBudgetSharing'],
  },
  adGroup: {
    columns: ['id', 'name', 'provider', 'status', 'campaignId', 'budget', 'budgetLevel', 'currency'],
    fields: [...COMMON_ROW, 'campaignId', 'bidAmount', 'roasFloor', 'startTime', 'endTime'],
  },
  ad: { columns: ['id', 'name', 'provider', 'status', 'advertiserId'] },
  creative: { columns: ['id', 'name', 'provider', 'advertiserId'] },
  assetGroup: { columns: ['id', 'name', 'provider', 'status', 'campaignId', 'advertiserId'] },
  mutation: { columns: ['id', 'state', 'action', 'advertiserId', 'provider', 'status', 'createdAt'] },
  asset: { columns: ['id', 'filename', 'name', 'state', 'kind', 'mimeType', 'sizeBytes', 'createdAt'] },
  keys: { columns: ['organization', 'label', 'key', 'description'], fields: ['key', 'organization', 'label', 'description'] },
  config: { columns: ['key', 'value', 'source'], fields: ['key', 'value', 'source'] },
  check: { columns: ['check', 'ok', 'detail'], fields: ['check', 'ok', 'detail'] },
  generic: { columns: [] },
};

export function resourceView(name: string): ResourceView {
  return RESOURCES[name] ?? RESOURCES.generic!;
}
