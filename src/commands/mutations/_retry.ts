// The command line that sends a body again: the named command for a known
// action (what a person would have typed), else the generic `mutations start`
// with -F. With the Idempotency-Key it is the safe retry after exit 10.
import { asText } from '../../cli/output/sanitize.js';

type Obj = Record<string, unknown>;

/** Quote for a POSIX shell when needed. */
export function shellQuote(text: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

const NAMED: Readonly<Record<string, string>> = {
  pause: 'pause',
  activate: 'activate',
  archive: 'archive',
  delete: 'delete',
  rename: 'rename',
  set_budget: 'budget',
  set_bid: 'bid',
};

export function commandFor(body: Obj, idempotencyKey?: string): string {
  const words: string[] = ['adops', 'mutations'];
  const target = (body.target ?? {}) as Obj;
  const verb = typeof body.action === 'string' ? NAMED[body.action] : undefined;
  if (verb && typeof body.advertiserId === 'string' && (target.type === 'campaign' || target.type === 'ad_group') && typeof target.id === 'string') {
    words.push(verb, body.advertiserId, target.type === 'campaign' ? '--campaign' : '--ad-group', target.id);
    if (body.action === 'rename') words.push('--name', String(body.name));
    if (body.action === 'set_budget') {
      const budget = (body.budget ?? {}) as Obj;
      words.push('--amount', String(budget.amount));
      if (budget.type !== undefined) words.push('--type', asText(budget.type));
    }
    if (body.action === 'set_bid') {
      if (body.bidStrategy !== undefined) words.push('--strategy', asText(body.bidStrategy));
      if (body.bidAmount !== undefined) words.push('--amount', asText(body.bidAmount));
    }
    if (body.action === 'delete') words.push('--yes');
  } else {
    words.push('start');
    for (const [k, v] of Object.entries(body)) words.push('-F', `${k}=${JSON.stringify(v)}`);
  }
  if (idempotencyKey !== undefined) words.push('--idempotency-key', idempotencyKey);
  return words.map(shellQuote).join(' ');
}
