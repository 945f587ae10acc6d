// Every action of createMutation, one entry each: the named fields it reads (a
// change file's columns, a named command's flags), the body those fields make,
// what the service restates under the mutation's `changes` (how a sent change
// is found in the history), the named command that sends it again, and the
// change that would undo it, read from the entity's live row before it.
// The table is keyed by the schema's own union of actions: an action added to
// createMutation's body without its entry here (or an entry without its
// variant) does not compile. Plain data and functions: no zod is loaded (the
// CLI reads this on its fast paths), the schemas are imported for their types.
import type { CreateMutation } from './schemas/mutations.js';
import type { AdGroupRow, CampaignRow } from './schemas/observe.js';

type Obj = Record<string, unknown>;

/** The actions createMutation takes: the `action` of its body's variants. */
export type MutationAction = CreateMutation['action'];
/** The body of one action. */
export type ActionBody<A extends MutationAction> = Extract<CreateMutation, { action: A }>;

/** Named fields beyond advertiser, action and target, in the order of a change file's columns. */
export const CHANGE_FIELDS = ['name', 'amount', 'budgetType', 'bidStrategy', 'bidAmount'] as const;
export type ChangeField = (typeof CHANGE_FIELDS)[number];
/** The fields that hold a number (a CSV cell of one is read as a number); the others hold text. */
const NUMBER_FIELDS = ['amount', 'bidAmount'] as const satisfies readonly ChangeField[];
export type NumberField = (typeof NUMBER_FIELDS)[number];
export const isNumberField = (f: ChangeField): f is NumberField => NUMBER_FIELDS.some((n) => n === f);

/** The keys of a change in named fields, in order: a change file's columns (bar `body`, a whole JSON body instead). */
export const NAMED_CHANGE_KEYS = ['advertiserId', 'action', 'targetType', 'targetId', ...CHANGE_FIELDS] as const;

/** One change in named fields: a named command's flags or a change file's row. */
export type NamedChange = { advertiserId: string; action: string; targetType?: string | undefined; targetId?: string | undefined } & {
  [F in ChangeField]?: (F extends NumberField ? number : string) | undefined;
};

/** An Observe row of the entity a change names, as a live read answers it (the service times null). */
export type LiveRow = CampaignRow | AdGroupRow;

/** The change that restores the entity, or why there is none. */
export type Inverse = { body: CreateMutation } | { reason: string };

export interface ActionEntry<A extends MutationAction> {
  /** The named command: `adops mutations <verb>`. */
  verb: string;
  /** Its named command asks for --yes (on a terminal, a confirmation). */
  destructive?: true;
  /** The named fields it reads; a value in any other is a mistake in the sheet. */
  fields: readonly ChangeField[];
  /** The body's own part of this action (after advertiserId, target, action), from named fields. */
  body(c: NamedChange): Obj;
  /** What the service restates under `changes` for this body (docs/decisions.md, "Mutation object"); undefined: not knowable. */
  changes(body: Obj): Obj | undefined;
  /** The flags (and their values) after the target that make the named command send this body again. */
  resend(body: Obj): readonly unknown[];
  /** The change that would restore `live`, the entity before this one; or why there is none. */
  inverse(body: ActionBody<A>, live: LiveRow): Inverse;
}

const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);
const head = (b: CreateMutation) => ({ advertiserId: b.advertiserId, target: { ...b.target } });
const NONE: readonly ChangeField[] = [];

/** pause and activate undo each other: the live status says which one restores it. */
function restoreStatus(b: CreateMutation, live: LiveRow): Inverse {
  if (live.status === 'ACTIVE') return { body: { ...head(b), action: 'activate' } };
  if (live.status === 'PAUSED') return { body: { ...head(b), action: 'pause' } };
  return { reason: `it was ${live.status} before; only ACTIVE or PAUSED is restored (by activate or pause)` };
}

/** A status action: its status is all the service restates. */
const statusAction = <A extends MutationAction>(
  verb: string,
  status: string,
  inverse: (b: CreateMutation, live: LiveRow) => Inverse,
  destructive = false,
): ActionEntry<A> => ({
  verb,
  ...(destructive ? { destructive: true as const } : {}),
  fields: NONE,
  body: () => ({}),
  changes: () => ({ status }),
  resend: () => [],
  inverse,
});

const irreversible = (what: string) => (): Inverse => ({ reason: `${what} cannot be undone: no change brings the entity back` });
const cannotUndo = (field: string) => ({ reason: `cannot undo: the live row carries no ${field} to restore` });
/** The service takes amounts above 0 only (422 invalid_amount). */
const isAmount = (n: unknown): n is number => typeof n === 'number' && n > 0;

export const MUTATION_ACTIONS: { readonly [A in MutationAction]: ActionEntry<A> } = {
  pause: statusAction('pause', 'PAUSED', restoreStatus),
  activate: statusAction('activate', 'ACTIVE', restoreStatus),
  delete: statusAction('delete', 'DELETED', irreversible('a delete'), true),
  archive: statusAction('archive', 'ARCHIVED', irreversible('an archive')),
  rename: {
    verb: 'rename',
    fields: ['name'],
    body: (c) => ({ name: c.name }),
    changes: (b) => ({ name: b.name }),
    resend: (b) => ['--name', b.name],
    inverse: (b, live) =>
      live.name.length >= 1 && live.name.length <= 400
        ? { body: { ...head(b), action: 'rename', name: live.name } }
        : cannotUndo('name of 1 to 400 characters'),
  },
  set_budget: {
    verb: 'budget',
    fields: ['amount', 'budgetType'],
    body: (c) => ({ budget: c.budgetType === undefined ? { amount: c.amount } : { amount: c.amount, type: c.budgetType } }),
    changes: (b) => (isObj(b.budget) ? { budget: { ...b.budget } } : undefined),
    resend: (b) => {
      const budget = isObj(b.budget) ? b.budget : {};
      return budget.type === undefined ? ['--amount', budget.amount] : ['--amount', budget.amount, '--type', budget.type];
    },
    // Spec budget rule 1: a row carries a budget only where the budget lives; elsewhere (or with no currency) it is null.
    inverse: (b, live) =>
      isAmount(live.budget) && live.budgetType !== null
        ? { body: { ...head(b), action: 'set_budget', budget: { amount: live.budget, type: live.budgetType } } }
        : cannotUndo(`budget (it lives at the ${live.budgetLevel ?? 'unknown'} level${live.currency === null ? ', and the currency is not known' : ''})`),
  },
  set_bid: {
    verb: 'bid',
    fields: ['amount', 'bidStrategy', 'bidAmount'],
    body: (c) => {
      const amount = c.bidAmount ?? c.amount;
      return { ...(c.bidStrategy !== undefined ? { bidStrategy: c.bidStrategy } : {}), ...(amount !== undefined ? { bidAmount: amount } : {}) };
    },
    changes: (b) => ({ bidStrategy: b.bidStrategy, bidAmount: b.bidAmount }),
    resend: (b) => [...(b.bidStrategy !== undefined ? ['--strategy', b.bidStrategy] : []), ...(b.bidAmount !== undefined ? ['--amount', b.bidAmount] : [])],
    inverse: restoreBid,
  },
};

/** Each of strategy and amount the change sent, back to its live value; a value the row does not carry cannot be restored. */
function restoreBid(b: ActionBody<'set_bid'>, live: LiveRow): Inverse {
  const strategy = b.bidStrategy === undefined ? undefined : live.bidStrategy;
  if (strategy === null) return cannotUndo('bidStrategy');
  // A campaign row has no bidAmount; an ad group's is null for a strategy with no amount or an unknown currency.
  const amount = b.bidAmount === undefined ? undefined : 'bidAmount' in live && isAmount(live.bidAmount) ? live.bidAmount : null;
  if (amount === null) return cannotUndo('bidAmount');
  return {
    body: {
      ...head(b),
      action: 'set_bid',
      ...(strategy !== undefined ? { bidStrategy: strategy } : {}),
      ...(amount !== undefined ? { bidAmount: amount } : {}),
    },
  };
}

/** The action names, in the schema's order. */
export const ACTION_NAMES: readonly string[] = Object.keys(MUTATION_ACTIONS);

export const isMutationAction = (action: unknown): action is MutationAction => typeof action === 'string' && Object.hasOwn(MUTATION_ACTIONS, action);

/** What the client reads of any entry: all but its inverse (whose body is the entry's own). */
export type ActionFacts = Omit<ActionEntry<MutationAction>, 'inverse'>;

/** The entry of a body's action; undefined for an action the contract does not know. */
export const actionEntry = (action: unknown): ActionFacts | undefined => (isMutationAction(action) ? MUTATION_ACTIONS[action] : undefined);

/** The body of one change from named fields; an unknown action gets advertiser, target and action only (its check says why). */
export function bodyOf(c: NamedChange): Obj {
  return { advertiserId: c.advertiserId, target: { type: c.targetType, id: c.targetId }, action: c.action, ...actionEntry(c.action)?.body(c) };
}

const invert = <A extends MutationAction>(action: A, body: ActionBody<A>, live: LiveRow): Inverse => MUTATION_ACTIONS[action].inverse(body, live);

/**
 * The change that would undo `body`, read from `live`: the target's live row as it was before
 * the change. A stored row is refused (its budget may be older than the rest of it, spec budget
 * rule 5, and it carries no bid fields), and so is a row of another entity.
 */
export function inverseOf(body: CreateMutation, live: LiveRow): Inverse {
  const rowType = live.type === 'campaign' ? 'campaign' : 'ad_group';
  if (live.advertiserId !== body.advertiserId || live.id !== body.target.id || rowType !== body.target.type) {
    return { reason: `the row is ${rowType} ${live.id} of ${live.advertiserId}, not the change's target` };
  }
  if (live.createdAt !== null) return { reason: 'a stored row: the change before it is read from a live row' };
  if (live.status === 'DELETED') return { reason: 'it was DELETED before: the change could not apply, there is nothing to undo' };
  return invert(body.action, body, live);
}
