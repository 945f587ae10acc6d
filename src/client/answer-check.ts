// No 2xx taken on faith: before a flow acts on a success answer (records a
// mutation id, polls it, PUTs bytes to an upload URL, writes at a revision,
// ends a wait, says "in sync", "in band", "ready" or "already there"), it
// checks what its step reads of that answer: the step's view
// (src/contract/answer-views.ts), checked by the compiled validator of the
// contract's own schema (src/contract/response-check.ts). An answer with
// issues is an `unexpected_answer` (exit 1), never a success; a flow that
// judges rows one by one turns a row's issues into a row of its own instead.
// What a step does not read is not looked at: the real service may add fields,
// or differ where this CLI never reads.
import { ApiError } from './errors.js';
import { isRecord } from './json.js';
import { holdsKey } from './redact.js';
import { ANSWER_VIEWS, type AnswerViewName, type ViewOperation } from '../contract/answer-views.js';
import type { OperationOutput } from '../contract/operation-io.js';
import { OPERATION_TABLE, type OperationId } from '../contract/operations.js';
import { answerIssues, issueText, type AnswerIssue } from '../contract/response-check.js';

/** The contract's state words (schemas/mutations.ts, assets.ts, context/documents.ts; equal by test). */
export const MUTATION_STATE_WORDS = ['pending', 'running', 'succeeded', 'failed'] as const;
export const ASSET_STATE_WORDS = ['reserved', 'uploaded', 'ready'] as const;
export const DOCUMENT_STATE_WORDS = ['pending_upload', 'ready'] as const;

/**
 * What a step needs of a field beyond its schema: an id it will send back in a path is not blank, and an
 * upload URL is an absolute http(s) URL (the schema says "a string"; the bytes go nowhere else).
 */
type StepRule = 'id' | 'url';
const STEP_RULES: Partial<Record<AnswerViewName, Readonly<Record<string, StepRule>>>> = {
  mutationStarted: { id: 'id' },
  mutationPolled: { id: 'id' },
  assetReserved: { id: 'id', uploadUrl: 'url' },
  documentReserved: { documentId: 'id', uploadUrl: 'url' },
  assetFinalized: { id: 'id' },
  assetRead: { id: 'id' },
  documentFinalized: { documentId: 'id' },
  documentRead: { documentId: 'id' },
  planCreated: { slug: 'id' },
  lineItemAdded: { lineItemId: 'id' },
};

function ruleProblem(value: unknown, rule: StepRule): string | undefined {
  if (typeof value !== 'string') return undefined; // the schema's check names a wrong type
  // An id or URL is kept (journals), sent back and shown: one that holds the key (in any form) is a hostile echo.
  if (holdsKey(value)) return 'holds an API key';
  if (rule === 'id') return value.trim() === '' ? 'blank' : undefined;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? undefined : 'not an http(s) URL';
  } catch {
    return 'not a URL';
  }
}

/** A success answer a step cannot act on: not the service's answer to act on (exit 1, `unexpected_answer`). */
export class UnexpectedAnswerError extends ApiError {
  constructor(
    /** The operation answered (or, for a request outside the table, its method and path). */
    readonly operation: OperationId | { method: string; path: string },
    /** Each field and what is wrong with it ("data[3].status: must be one of …"), never its value. */
    readonly problems: readonly string[],
    status: number,
  ) {
    const op = typeof operation === 'string' ? OPERATION_TABLE[operation] : operation;
    const shown = problems.slice(0, MAX_SHOWN);
    const more = problems.length - shown.length;
    super({
      status,
      body: {
        error: 'unexpected_answer',
        message: `unexpected answer to ${op.method} ${op.path}: ${shown.join('; ')}${more > 0 ? `; and ${more} more` : ''} (adops did not act on it)`,
      },
      method: op.method,
      path: op.path,
    });
  }
}

/** Problems named in one message; the rest counted. */
const MAX_SHOWN = 5;

/** An issue of an answer, said of what came (`id: missing`, `state: not one of …`), not of what to send. */
const answerText = (issue: AnswerIssue, whole?: string): string =>
  issueText({ ...issue, text: issue.text.replace(/^is required$/, 'missing').replace(/^must be one of /, 'not one of ') }, whole);

/** Every problem with what `view` reads of `body`, in a person's words; [] when the step may act on it. */
export async function viewProblems(view: AnswerViewName, body: unknown): Promise<string[]> {
  if (body === undefined || body === '') return ['the body is empty'];
  if (Array.isArray(body)) return ['the body is a list'];
  const issues = await answerIssues(view, body);
  const out = issues.map((i) => answerText(i));
  if (isRecord(body)) {
    for (const [field, rule] of Object.entries(STEP_RULES[view] ?? {})) {
      const problem = ruleProblem(body[field], rule);
      if (problem) out.push(`${field}: ${problem}`);
    }
  }
  return out;
}

/**
 * The body, once what `view` reads of it keeps the contract; else an UnexpectedAnswerError naming each
 * problem. `status`: the 2xx it came with (200 when the caller only has the body).
 */
export async function checkAnswer<V extends AnswerViewName>(
  view: V,
  body: unknown,
  opts: { status?: number } = {},
): Promise<OperationOutput<ViewOperation<V>>> {
  const problems = await viewProblems(view, body);
  if (!keeps<OperationOutput<ViewOperation<V>>>(body, problems)) throw new UnexpectedAnswerError(ANSWER_VIEWS[view].op, problems, opts.status ?? 200);
  return body;
}

/** Checked: every field the step reads is as the contract types it (the view's schema); the rest is read tolerantly. */
const keeps = <T>(body: unknown, problems: readonly string[]): body is T => problems.length === 0 && isRecord(body);

/** An answer's issues, as UnexpectedAnswerError would name them (for a flow that reports them as a row). */
export const problemWords = (issues: readonly AnswerIssue[], whole = 'the row'): string[] => issues.map((i) => answerText(i, whole));
