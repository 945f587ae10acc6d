// Checks a success answer with the schema the sandbox publishes for it,
// compiled by the one validator engine at `npm run gen` time
// (./generated/response-validators.ts, loaded here lazily, when a flow first
// acts on an answer: `--help`, the stored reads and the display commands never
// load it). A tolerant reader's check: a field the contract does not name
// passes; a required field missing, a wrong type, a null where none is allowed,
// a word outside its enum or a date that is not one is an issue. A flow judges
// only answers with none (src/client: checked calls), or turns the issues of a
// row into a row of its own ("not comparable: …").
import type { OperationId } from './operations.js';
import { issuesOf, pointerWords, type ValidationIssue, type Validators } from './validation-words.js';

export type AnswerIssue = ValidationIssue;

let loaded: Promise<Validators> | undefined;
const load = (): Promise<Validators> => (loaded ??= import('./generated/response-validators.js') as Promise<Validators>);

/** Every way `body` breaks `id`'s success answer; [] when it keeps the contract. */
export async function answerIssues(id: OperationId, body: unknown): Promise<AnswerIssue[]> {
  const validate = (await load())[`${id}_response`];
  if (typeof validate !== 'function' || validate(body)) return [];
  return issuesOf(validate.errors ?? [], body);
}

/** The issues inside each item of the array at `at` ('/data', '/lineItems'), by index; the others apart. */
export function issuesByItem(issues: readonly AnswerIssue[], at: string): { items: Map<number, AnswerIssue[]>; rest: AnswerIssue[] } {
  const items = new Map<number, AnswerIssue[]>();
  const rest: AnswerIssue[] = [];
  for (const issue of issues) {
    const m = issue.pointer.startsWith(`${at}/`) ? /^(\d+)(?=\/|$)/.exec(issue.pointer.slice(at.length + 1)) : null;
    if (!m) {
      rest.push(issue);
      continue;
    }
    const i = Number(m[1]);
    const list = items.get(i) ?? [];
    list.push({ ...issue, pointer: issue.pointer.slice(at.length + 1 + m[1]!.length) });
    items.set(i, list);
  }
  return { items, rest };
}

/** One issue for a person: `data[3].status: must be one of ACTIVE, PAUSED, DELETED, ARCHIVED`. */
export const issueText = (issue: AnswerIssue, whole = 'the answer'): string => `${pointerWords(issue.pointer, whole)}: ${issue.text}`;
