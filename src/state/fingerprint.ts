// Every record the store keeps about a service's object is keyed by the
// service (its base URL) and a fingerprint of the key: an id made by one
// deployment or organization means nothing to another, and must never make a
// run against another one skip its work. The key itself is never written.
import { createHash } from 'node:crypto';

/**
 * A key's fingerprint: enough to tell keys apart, useless to call the service with. (The salt
 * still says "upload journal", where it was first used: changing it would orphan every entry
 * already on disk.)
 */
export const keyFingerprint = (apiKey: string | undefined): string =>
  createHash('sha256')
    .update(`adops upload journal\n${apiKey ?? ''}`)
    .digest('hex')
    .slice(0, 16);

/** Which service and key a record belongs to. */
export interface ServiceScope {
  baseUrl: string;
  keyFp: string;
}

export const serviceScope = (baseUrl: string, apiKey: string | undefined): ServiceScope => ({
  baseUrl: normalizeBaseUrl(baseUrl),
  keyFp: keyFingerprint(apiKey),
});

/** `https://X/` and `https://X` are one service. */
const normalizeBaseUrl = (baseUrl: string): string => baseUrl.replace(/\/+$/, '');

export const sameScope = (a: ServiceScope, b: ServiceScope): boolean => a.baseUrl === b.baseUrl && a.keyFp === b.keyFp;

/** A short, stable name for a scope (file names). */
export const scopeId = (s: ServiceScope, ...more: string[]): string =>
  createHash('sha256')
    .update([s.baseUrl, s.keyFp, ...more].join('\n'))
    .digest('hex')
    .slice(0, 16);
