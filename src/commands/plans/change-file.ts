// The change file `plans verify --fix` and `plans pacing --suggest` write: an
// ordinary file of `mutations apply` (src/commands/mutations/_rows.ts), CSV
// with the named columns when FILE ends in .csv, else NDJSON of whole
// createMutation bodies. Every change is checked as apply checks it
// (changeProblems) before it is written: one apply would refuse is listed, not
// written. The file is written durably and never over an existing one unless
// --force (exit 2, as gh does), checked before anything is read and again at
// the write (a hard link, not a rename). What was not proposed goes to stderr.
import { existsSync } from 'node:fs';
import type { CommandContext } from '../../cli/context.js';
import { UsageError } from '../../cli/errors.js';
import { lineText } from '../../cli/output/sanitize.js';
import { errnoOf } from '../../state/errors.js';
import { writeDurably } from '../../state/durable-write.js';
import { bodyOf, NAMED_CHANGE_KEYS, type NamedChange } from '../../contract/mutation-actions.js';
import type { NotProposed, Proposal, ProposedChange } from '../../flows/plan-proposal.js';
import { changeProblems } from '../mutations/_change.js';

const exists = (file: string) => new UsageError(`${file} exists: not overwritten`, 'name another file, or add --force to write over it');

/** Refuse at once a FILE that exists (without --force): nothing is read for a proposal that cannot be written. */
export function checkChangeFile(file: string, force: boolean | undefined): void {
  if (force !== true && existsSync(file)) throw exists(file);
}

/** A cell written as it is read back: no quote, comma, line break or control, and nothing a spreadsheet would run. */
const plainCell = (v: string) => ![...v].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f) && !/[",]|^[=+\-@\s]|\s$/.test(v);

/** One change as a CSV line of the named columns, or undefined when a cell could not be read back unchanged. */
function csvLine(c: NamedChange): string | undefined {
  const cells = NAMED_CHANGE_KEYS.map((k) => c[k]);
  if (cells.some((v) => typeof v === 'string' && !plainCell(v))) return undefined;
  return cells.map((v) => (v === undefined ? '' : String(v))).join(',');
}

/** The changes apply would send as they are; each other one is listed with its problems. */
async function sendable(changes: readonly ProposedChange[], csv: boolean): Promise<{ lines: string[]; refused: NotProposed[] }> {
  const lines: string[] = [];
  const refused: NotProposed[] = [];
  for (const { lineItemId, change } of changes) {
    const problems = await changeProblems(bodyOf(change));
    const line = csv ? csvLine(change) : JSON.stringify(bodyOf(change));
    if (line === undefined) problems.push('a value a CSV cell would not read back unchanged (write .ndjson instead)');
    if (problems.length === 0 && line !== undefined) lines.push(line);
    else refused.push({ lineItemId, entityType: change.targetType ?? null, entityId: change.targetId ?? null, reason: `not sendable: ${problems.join('; ')}` });
  }
  return { lines, refused };
}

/** Write the proposal's changes to FILE and list on stderr what was not proposed; the number of changes written. */
export async function writeChangeFile(ctx: CommandContext, file: string, proposal: Proposal, force: boolean | undefined): Promise<number> {
  const csv = /\.csv$/i.test(file);
  const { lines, refused } = await sendable(proposal.changes, csv);
  const text = (csv ? [NAMED_CHANGE_KEYS.join(','), ...lines] : lines).map((l) => l + '\n').join('');
  try {
    writeDurably(file, text, 'the change file', { exclusive: force !== true });
  } catch (err) {
    if (errnoOf(err) === 'EEXIST') throw exists(file);
    throw err;
  }
  for (const n of [...proposal.notProposed, ...refused]) {
    const at = [n.lineItemId, n.entityType && n.entityId ? `${n.entityType} ${n.entityId}` : null].filter((x) => x !== null).map((x) => lineText(x));
    ctx.warn(`not proposed${at.length ? ` (${at.join(', ')})` : ''}: ${lineText(n.reason)}`);
  }
  ctx.note(`${lines.length} change(s) written to ${lineText(file)}; send them with: adops mutations apply ${lineText(file)}`);
  return lines.length;
}
