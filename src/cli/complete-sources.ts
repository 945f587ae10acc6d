// Where completion's ids come from: each kind's listing (complete-kinds.ts,
// from the nouns' `completion` in src/contract/resources.ts), read through the
// one client, with the row's name as the id's description (zsh and fish show
// it). The background refresh (complete-refresh.ts) and the pickers call it;
// a TAB never does (it reads the cache).
//
// Advertisers: the contract has no list of the organization's advertisers (a
// Brand's attachments are only the ones someone attached, one request per
// Brand). The cheapest source that names them is Insights at advertiser level
// over the longest range the service takes: one row per advertiser (and
// currency), 500 advertisers a request, instead of pages of campaigns
// (distinct `advertiserId` of up to 1,000 rows, which misses every advertiser
// past them). An advertiser whose campaigns never delivered has no Insight
// row: the first page of stored campaigns (newest first, so a newly
// connected advertiser is on it) adds those. Its description is its provider
// and currency: no answer of the contract but a Brand attachment carries an
// advertiser's name.
import type { ApiClient } from '../client/http.js';
import { resourceEntries } from '../contract/resources.js';
import { ID_SOURCES, type IdKind } from './complete-kinds.js';
import { completionCandidate, completionDescription } from './output/sanitize.js';
import type { CacheEntry } from '../state/completion-cache.js';

/** The name field of each kind's rows (the noun's `name`: a Brand's name, an Asset's file name). */
const NAME_FIELDS: Readonly<Record<string, string>> = Object.fromEntries(
  resourceEntries().flatMap(([, r]) => (r.completion && r.name ? [[r.completion.kind, r.name]] : [])),
);

/** Insights take a range shorter than ten years (schemas/observe.ts): the last 3,650 days, today included. */
const INSIGHT_DAYS = 3649;
const DAY_MS = 86_400_000;
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

const field = (row: unknown, name: string): unknown =>
  typeof row === 'object' && row !== null ? Object.entries(row).find(([k]) => k === name)?.[1] : undefined;
const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** The ids of `kind` the service holds, each with its description, sorted; through the text boundary, the key never among them. */
export async function fetchEntries(kind: IdKind, client: ApiClient, signal: AbortSignal, now: () => number = Date.now): Promise<CacheEntry[]> {
  const found = new Map<string, string>();
  const add = (id: unknown, description: string) => {
    if (typeof id === 'string' && !found.get(id)) found.set(id, description);
  };
  if (kind === 'advertiser') {
    const until = now();
    const query = { since: isoDay(until - INSIGHT_DAYS * DAY_MS), until: isoDay(until), level: 'advertiser', timeGrain: 'all' } as const;
    for await (const { rows } of client.pages('listInsights', { query }, { pageSize: 500, signal })) {
      for (const r of rows) add(field(r, 'advertiserId'), advertiserDescription(r));
      break; // one page: 500 advertisers
    }
    for await (const { rows } of client.pages('listCampaigns', {}, { pageSize: 100, signal })) {
      for (const r of rows) add(field(r, 'advertiserId'), advertiserDescription(r));
      break;
    }
  } else {
    const source = ID_SOURCES[kind];
    const nameField = NAME_FIELDS[kind];
    let page = 0;
    // The one paginator (a repeated cursor stops it); the rows read tolerantly: another deployment may differ.
    for await (const { rows } of client.pages(source.operation, {}, { pageSize: source.limit, signal })) {
      for (const r of rows) add(field(r, source.field), nameField ? completionDescription(text(field(r, nameField)) ?? '') : '');
      if (++page >= source.pages) break;
    }
  }
  // Text from the server is untrusted: ids through the boundary (the id alphabet, nothing a shell would expand,
  // nothing it would mask: no form of the key, nothing shaped like one), descriptions too (one masked line).
  return [...found]
    .filter(([id]) => completionCandidate(id) !== undefined)
    .map(([id, description]) => ({ id, description }))
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** "provider_a · USD": what a stored row says of its advertiser. */
function advertiserDescription(row: unknown): string {
  return completionDescription([text(field(row, 'provider')), text(field(row, 'currency'))].filter(Boolean).join(' · '));
}
