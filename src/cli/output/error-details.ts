// The fields a failure adds (spec "Errors": currentRevision, slug, allowed,
// sizeBytes/limitBytes, provider, platformError, paywallUrl), as lines for a
// person. Every value is server text: one line through the boundary
// (sanitize.ts: masked, stripped, line breaks joined), cut short.
import { asText, lineText } from './sanitize.js';
import { humanBytes } from '../../contract/media.js';

export const MAX_ISSUES = 10;
const MAX_VALUE = 300;

function short(value: unknown): string {
  const text = lineText(value);
  return text.length > MAX_VALUE ? text.slice(0, MAX_VALUE - 1) + '…' : text;
}

// provider_a's error object: the keys the spec names, in reading order.
const PLATFORM_KEYS = ['code', 'error_subcode', 'type', 'error_user_title', 'error_user_msg', 'message'] as const;

function platformSummary(pe: unknown): string {
  if (pe === null || typeof pe !== 'object' || Array.isArray(pe)) return short(pe);
  const o = pe as Record<string, unknown>;
  // Some providers wrap it: { error: {...} }.
  const inner = o.error && typeof o.error === 'object' && !Array.isArray(o.error) ? (o.error as Record<string, unknown>) : o;
  const named = PLATFORM_KEYS.filter((k) => inner[k] !== undefined && inner[k] !== null && inner[k] !== '');
  if (named.length === 0) return short(inner);
  return named.map((k) => `${k}=${short(inner[k])}`).join(', ');
}

/** Lines for the added fields the report carries; unknown added fields are listed too (the service may add more). */
export function extraLines(extra: Record<string, unknown>, hintText = ''): string[] {
  const lines: string[] = [];
  const done = new Set<string>();
  const take = (k: string) => (done.add(k), extra[k]);
  if (extra.provider !== undefined) lines.push(`  provider: ${short(take('provider'))}`);
  if (extra.platformError !== undefined) lines.push(`  provider said: ${platformSummary(take('platformError'))}`);
  if (extra.currentRevision !== undefined) lines.push(`  current revision: ${short(take('currentRevision'))} (read it again, reapply, resend)`);
  if (extra.slug !== undefined) lines.push(`  slug taken: ${short(take('slug'))}`);
  if (Array.isArray(extra.allowed)) lines.push(`  allowed types: ${short((take('allowed') as unknown[]).join(', '))}`);
  if (typeof extra.sizeBytes === 'number' || typeof extra.limitBytes === 'number') {
    const size = take('sizeBytes');
    const limit = take('limitBytes');
    const fmt = (v: unknown) => (typeof v === 'number' ? humanBytes(v) : 'unknown');
    lines.push(`  size: ${fmt(size)}, limit: ${fmt(limit)}`);
  }
  // The hint of organization_unentitled already names the address.
  const paywall = take('paywallUrl');
  if (paywall !== undefined && !hintText.includes(asText(paywall))) lines.push(`  subscribe at: ${short(paywall)}`);
  for (const [k, v] of Object.entries(extra)) {
    if (done.has(k) || v === undefined) continue;
    lines.push(`  ${short(k)}: ${short(v)}`);
  }
  return lines;
}
