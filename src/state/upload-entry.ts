// What the upload journal keeps of one content (service, target, size, SHA-256):
// the shape of a content file of the store, and of each record of a run's log
// (upload-log.ts), which carries a content's whole state.
import { isRecord } from '../client/json.js';

export type JournalState =
  /** Reserved; its URL may still take the bytes. */
  | 'reserved'
  /** Every byte was read and handed to the PUT (sentSha256 set); the answer may have been lost. */
  | 'sent'
  /**
   * The storage confirmed the bytes. No longer written (#27): `sent` already names the bytes by
   * their hash and resumes the same way; an entry of an older adops may still read so.
   */
  | 'uploaded'
  /** Finalized and ready. */
  | 'ready';

export interface JournalEntry {
  /** Asset or Document id. */
  id: string;
  /** Fingerprint of the API key that made it (never the key). */
  keyFp: string;
  state: JournalState;
  /** SHA-256 (hex) of the bytes that went to `id`, recorded before the last of them left. */
  sentSha256?: string;
  uploadUrl?: string;
  uploadExpiresAt?: number;
  /** What the reservation was made for: a pending entry is sent to again only for the same. */
  filename?: string;
  contentType?: string;
  updatedAt: number;
}

/**
 * One content's entries. `gen` counts the writes of this content (#37): each holder of its lock
 * writes one more than the highest it read, so of a store file and the records of many run logs
 * the highest `gen` is the newest. A file of an older adops has none (0).
 */
export interface ContentFile {
  v: 2;
  target: string;
  size: number;
  sha256: string;
  gen?: number;
  entries: JournalEntry[];
}

const STATES: readonly string[] = ['reserved', 'sent', 'uploaded', 'ready'];
const validEntry = (x: unknown): x is JournalEntry =>
  isRecord(x) &&
  typeof x.id === 'string' &&
  typeof x.keyFp === 'string' &&
  typeof x.state === 'string' &&
  STATES.includes(x.state) &&
  typeof x.updatedAt === 'number';

/** A content file's shape (any content); undefined when it is not one. */
export function contentOf(c: unknown): ContentFile | undefined {
  if (!isRecord(c) || c.v !== 2 || typeof c.target !== 'string' || typeof c.size !== 'number' || typeof c.sha256 !== 'string') return undefined;
  if (!Array.isArray(c.entries) || !c.entries.every(validEntry)) return undefined;
  if (c.gen !== undefined && (typeof c.gen !== 'number' || !Number.isSafeInteger(c.gen))) return undefined;
  return { v: 2, target: c.target, size: c.size, sha256: c.sha256, ...(typeof c.gen === 'number' ? { gen: c.gen } : {}), entries: c.entries };
}

export const genOf = (c: ContentFile | undefined): number => c?.gen ?? 0;
