// The command line that sends a body again: the named command for a known
// action (what a person would have typed: its verb and flags are the action's
// entry in src/contract/mutation-actions.ts), else the generic `mutations start`
// with -F. With the Idempotency-Key it is the safe retry after exit 10.
import { asText } from '../../cli/output/sanitize.js';
import { actionEntry } from '../../contract/mutation-actions.js';

type Obj = Record<string, unknown>;

/** Quote for a POSIX shell when needed. */
export function shellQuote(text: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

export function commandFor(body: Obj, idempotencyKey?: string): string {
  const words: string[] = ['adops', 'mutations'];
  const target: Obj = body.target !== null && typeof body.target === 'object' ? { ...body.target } : {};
  const entry = actionEntry(body.action);
  if (entry && typeof body.advertiserId === 'string' && (target.type === 'campaign' || target.type === 'ad_group') && typeof target.id === 'string') {
    words.push(entry.verb, body.advertiserId, target.type === 'campaign' ? '--campaign' : '--ad-group', target.id, ...entry.resend(body).map(asText));
    if (entry.destructive) words.push('--yes');
  } else {
    words.push('start');
    for (const [k, v] of Object.entries(body)) words.push('-F', `${k}=${JSON.stringify(v)}`);
  }
  if (idempotencyKey !== undefined) words.push('--idempotency-key', idempotencyKey);
  return words.map(shellQuote).join(' ');
}
