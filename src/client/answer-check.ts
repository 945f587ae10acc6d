// No 2xx taken on faith: before a flow acts on a success answer (records a
// mutation id, polls it, PUTs bytes to an upload URL, writes at a revision,
// ends a wait), it checks the fields the operation's contract requires for
// that step. One table, keyed by operation id, one function; a body that lacks
// them is an `unexpected_answer` (exit 1), never a success. The real service
// may add fields, so only the fields a step needs are checked, not the whole
// schema. Plain data, no zod (the CLI's paths stay light): test/unit/client/
// h25-faith-answer-check.test.ts holds each rule against the contract's schemas.
import { isRecord } from './json.js';
import { ApiError } from './errors.js';
import { holdsKey } from './redact.js';
import { OPERATION_TABLE, type OperationId } from '../contract/operations.js';

/** The contract's state words (schemas/mutations.ts, assets.ts, context/documents.ts; equal by test). */
export const MUTATION_STATE_WORDS = ['pending', 'running', 'succeeded', 'failed'] as const;
export const ASSET_STATE_WORDS = ['reserved', 'uploaded', 'ready'] as const;
export const DOCUMENT_STATE_WORDS = ['pending_upload', 'ready'] as const;

/** What a field must hold: a non-empty string, an absolute http(s) URL, a whole number ≥ 1, true or false, or one of some words. */
export type FieldRule = 'id' | 'url' | 'revision' | 'flag' | readonly string[];

/** The fields each step reads from an operation's success answer. */
export const ANSWER_FIELDS = {
  /** A started change is known by its id (journal, poll); without one it may or may not have started. */
  createMutation: { id: 'id' },
  /** A poll decides on the state, so it must be one of the contract's. */
  getMutation: { id: 'id', state: MUTATION_STATE_WORDS },
  /** The bytes go to uploadUrl, and the row is found again by its id. */
  reserveAssetUpload: { id: 'id', uploadUrl: 'url' },
  reserveDocument: { documentId: 'id', uploadUrl: 'url' },
  /** Ready or not is read from the state. */
  finalizeAsset: { id: 'id', state: ASSET_STATE_WORDS },
  getAsset: { id: 'id', state: ASSET_STATE_WORDS },
  finalizeDocument: { documentId: 'id', state: DOCUMENT_STATE_WORDS },
  getDocument: { documentId: 'id', state: DOCUMENT_STATE_WORDS },
  /** The next write is made at the revision answered. */
  createCampaignPlan: { slug: 'id', revision: 'revision' },
  getCampaignPlan: { slug: 'id', revision: 'revision' },
  addLineItem: { lineItemId: 'id' },
  updateSkill: { revision: 'revision' },
  updateBrand: { revision: 'revision' },
  updatePersona: { revision: 'revision' },
  updateCampaignPlan: { revision: 'revision' },
  updateLineItem: { revision: 'revision' },
  renameAsset: { revision: 'revision' },
  /** A wait ends on `ready`, and a Line Item is reported not ready only on a `false` the service said. */
  getLineItemReadiness: { ready: 'flag' },
} as const satisfies Partial<Record<OperationId, Readonly<Record<string, FieldRule>>>>;

export type CheckedOperation = keyof typeof ANSWER_FIELDS;

export const isCheckedOperation = (id: string): id is CheckedOperation => Object.hasOwn(ANSWER_FIELDS, id);
type FieldsOf<Id extends CheckedOperation> = keyof (typeof ANSWER_FIELDS)[Id];
type RuleOf<Id extends CheckedOperation, F extends FieldsOf<Id>> = (typeof ANSWER_FIELDS)[Id][F];
type Checked<Id extends CheckedOperation> = Record<string, unknown> & {
  [F in FieldsOf<Id>]: RuleOf<Id, F> extends 'revision' ? number : RuleOf<Id, F> extends 'flag' ? boolean : string;
};

/** A success answer that lacks what the step needs: not the service's answer to act on (exit 1, `unexpected_answer`). */
export class UnexpectedAnswerError extends ApiError {
  constructor(
    readonly operation: OperationId,
    /** Each field and what is wrong with it ("id: missing"). */
    readonly problems: readonly string[],
    status: number,
  ) {
    const op = OPERATION_TABLE[operation];
    super({
      status,
      body: {
        error: 'unexpected_answer',
        message: `unexpected answer to ${op.method} ${op.path}: ${problems.join('; ')} (a success answer must carry them; adops did not act on it)`,
      },
      method: op.method,
      path: op.path,
    });
  }
}

const shown = (v: unknown): string => (v === undefined ? 'missing' : v === null ? 'null' : typeof v === 'string' ? 'not accepted' : `a ${typeof v}`);

function problemOf(value: unknown, rule: FieldRule): string | undefined {
  // An id or URL is kept (journals), sent back and shown: one that holds the key (in any form) is a hostile echo.
  if ((rule === 'id' || rule === 'url') && typeof value === 'string' && holdsKey(value)) return 'holds an API key';
  if (rule === 'id') return typeof value === 'string' && value.trim() !== '' ? undefined : shown(value);
  if (rule === 'revision') return typeof value === 'number' && Number.isInteger(value) && value >= 1 ? undefined : shown(value);
  if (rule === 'flag') return typeof value === 'boolean' ? undefined : shown(value);
  if (rule === 'url') {
    if (typeof value !== 'string') return shown(value);
    try {
      const url = new URL(value);
      return url.protocol === 'http:' || url.protocol === 'https:' ? undefined : 'not an http(s) URL';
    } catch {
      return 'not a URL';
    }
  }
  if (typeof value !== 'string') return shown(value);
  // Server text in a message: only say it is not one of the words, never echo it.
  return rule.includes(value) ? undefined : `not one of ${rule.join(', ')}`;
}

/** The problems of `body` against `rules`; empty when it may be acted on. */
function problemsOf(body: unknown, rules: Readonly<Record<string, FieldRule>>): string[] {
  if (!isRecord(body))
    return [`the body is ${body === undefined ? 'empty' : Array.isArray(body) ? 'a list' : `not an object (${body === null ? 'null' : typeof body})`}`];
  const out: string[] = [];
  for (const [name, rule] of Object.entries(rules)) {
    const problem = problemOf(Object.getOwnPropertyDescriptor(body, name)?.value, rule);
    if (problem) out.push(`${name}: ${problem}`);
  }
  return out;
}

/** The problems of `body` for the step (every field of the operation, or only `fields`); empty when it may be acted on. */
export function answerProblems<Id extends CheckedOperation>(id: Id, body: unknown, fields?: readonly FieldsOf<Id>[]): string[] {
  const rules: Readonly<Record<string, FieldRule>> = ANSWER_FIELDS[id];
  return problemsOf(body, fields ? Object.fromEntries(fields.map((f) => [String(f), rules[String(f)]!])) : rules);
}

/**
 * The same check for a step that reads fields the table does not list for its
 * operation (an edit reads the `revision` of whatever row it changes).
 */
export function checkFields(id: OperationId, body: unknown, rules: Readonly<Record<string, FieldRule>>, status = 200): Record<string, unknown> {
  const problems = problemsOf(body, rules);
  if (problems.length || !isRecord(body)) throw new UnexpectedAnswerError(id, problems, status);
  return body;
}

/**
 * The body, once it carries what the step needs; else an UnexpectedAnswerError.
 * `status`: the 2xx it came with (200 when the caller only has the body).
 */
export function checkAnswer<Id extends CheckedOperation>(id: Id, body: unknown, opts: { fields?: readonly FieldsOf<Id>[]; status?: number } = {}): Checked<Id> {
  const problems = answerProblems(id, body, opts.fields);
  if (problems.length || !isRecord(body)) throw new UnexpectedAnswerError(id, problems, opts.status ?? 200);
  return body as Checked<Id>;
}
