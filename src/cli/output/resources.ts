// What output knows of each `resource` a command names: the table's default
// columns, the fields `--fields` may name, and the rest of a view. The nouns
// of the service are declared once in src/contract/resources.ts, their field
// paths derived from the response schemas (src/contract/generated/
// resource-fields.json, written by `npm run gen`); only the CLI's own data
// (keys, config, checks, profiles, drift) is declared here, where it is made.
//
// `fields`: nested objects as dotted paths; `x.*` marks an open object (any
// path under x). `strict`: the spec says no other field exists (normalized
// Observe rows) or the data is ours, so an unknown field is refused before
// sending. Otherwise an unknown field is refused only if the data does not
// carry it either (the real service may add fields): see fields.ts.
import FIELDS from '../../contract/generated/resource-fields.json' with { type: 'json' };
import { resourceOf, tableImportance, type ResourceName } from '../../contract/resources.js';

export interface ResourceView {
  columns: readonly string[];
  /** Known fields; undefined: any name is accepted. */
  fields?: readonly string[];
  strict?: boolean;
  /**
   * Table columns most wanted first, when a known terminal width cannot hold
   * them all (a noun's: tableImportance in src/contract/resources.ts; else the
   * order of `columns`); shown in the order of `columns`.
   */
  importance?: readonly string[];
  /** Numeric fields `--chart` may draw over time. */
  metrics?: readonly string[];
}

/** A view of the CLI's own rows: every field is a column, and no other exists. */
const own = (fields: readonly string[], columns: readonly string[] = fields): ResourceView => ({ columns, fields, strict: true });

const LOCAL = {
  keys: own(['key', 'organization', 'label', 'description'], ['organization', 'label', 'key', 'description']),
  config: own(['key', 'value', 'source']),
  check: own(['check', 'ok', 'detail']),
  /** `auth list` and `auth status --all`: a stored profile, its key masked. */
  profile: own(['name', 'default', 'baseUrl', 'key', 'organization']),
  profileCheck: own(['name', 'default', 'baseUrl', 'key', 'organization', 'ok', 'detail'], ['name', 'default', 'baseUrl', 'key', 'ok', 'detail']),
  /** `observe drift`: one difference between the stored and the live copy. */
  drift: own(['id', 'name', 'field', 'stored', 'live']),
  /** `plans verify` and `plans pacing` (src/flows/plan-verify.ts, plan-pacing.ts): a Line Item against what runs. */
  planVerify: own(['lineItemId', 'entityType', 'entityId', 'field', 'planned', 'live', 'note']),
  planPacing: {
    ...own([
      'lineItemId',
      'name',
      'currency',
      'budgetType',
      'budget',
      'startDate',
      'endDate',
      'asOf',
      'daysElapsed',
      'flightDays',
      'spend',
      'expected',
      'pace',
      'projected',
      'inBand',
      'note',
    ]),
    importance: [
      'lineItemId',
      'spend',
      'expected',
      'pace',
      'inBand',
      'projected',
      'budget',
      'budgetType',
      'name',
      'note',
      'currency',
      'daysElapsed',
      'flightDays',
      'asOf',
      'startDate',
      'endDate',
    ],
  },
} as const satisfies Readonly<Record<string, ResourceView>>;

/**
 * What a command's output is a view of: a noun of the service (src/contract/resources.ts), one of the CLI's
 * own rows above, or rows shown as they come with any field accepted (`api`'s answers, `auth status`, a
 * sync's or an apply's result rows).
 */
export type ViewName = ResourceName | keyof typeof LOCAL | 'generic' | 'syncResult' | 'mutation-apply';

const GENERIC: ResourceView = { columns: [] };
const derived: Readonly<Record<string, readonly string[] | undefined>> = FIELDS;

/** The view of a command's `resource`; anything undeclared (`api`'s answers) shows its own keys and accepts any field. */
export function resourceView(name: ViewName): ResourceView {
  const locals: Readonly<Record<string, ResourceView>> = LOCAL;
  const local = Object.hasOwn(locals, name) ? locals[name] : undefined;
  if (local) return local;
  const r = resourceOf(name);
  if (!r) return GENERIC;
  const fields = Object.hasOwn(derived, name) ? derived[name] : undefined;
  return {
    columns: r.columns,
    ...(fields ? { fields } : {}),
    ...(r.strict ? { strict: true } : {}),
    importance: tableImportance(r),
    ...(r.metrics ? { metrics: r.metrics } : {}),
  };
}
