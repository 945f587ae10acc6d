// Media types a Brand Document may have, their size limits, and how the bytes
// that landed are checked against the type named at reservation (the spec
// leaves both open; docs/decisions.md). Judged by content, never by
// file name: a PDF starts with `%PDF-`, a DOCX is a ZIP container, and the
// text types must be UTF-8 text (no NUL bytes).
import { limitsFrom } from '../uploads/limits.js';
import type { MediaLimits } from '../uploads/limits.js';

const MiB = 1024 * 1024;

export const DEFAULT_DOCUMENT_LIMITS: MediaLimits = {
  'application/pdf': 50 * MiB,
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 50 * MiB,
  'text/plain': 10 * MiB,
  'text/markdown': 10 * MiB,
  'text/csv': 50 * MiB,
};

export const DOCUMENT_MEDIA_TYPES: readonly string[] = Object.keys(DEFAULT_DOCUMENT_LIMITS);

/** The Document limits of a sandbox: the defaults, with its `settings.documentLimits` (e.g. `{ 'text/plain': 100 }` in a test) over them. */
export const documentLimits = (settings: { documentLimits?: MediaLimits }) => limitsFrom(settings.documentLimits, DEFAULT_DOCUMENT_LIMITS);

/** Leading bytes read to judge a stored document. */
export const DOCUMENT_HEAD_BYTES = 64 * 1024;

const startsWith = (b: Uint8Array, sig: readonly number[]) => b.length >= sig.length && sig.every((v, i) => b[i] === v);
const PDF = [0x25, 0x50, 0x44, 0x46, 0x2d]; // "%PDF-"
const ZIP = [0x50, 0x4b, 0x03, 0x04]; // "PK\3\4", the container of every OOXML file

function isUtf8Text(head: Uint8Array): boolean {
  if (head.includes(0)) return false;
  try {
    // stream: true tolerates a multi-byte character cut at the end of the head.
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
    return true;
  } catch {
    return false;
  }
}

/** Whether the stored bytes are a file of `mediaType` (one of DOCUMENT_MEDIA_TYPES). */
export function bytesMatchDocumentType(mediaType: string, head: Uint8Array, sizeBytes: number): boolean {
  if (sizeBytes === 0) return false; // an empty file is no reference material of any type
  switch (mediaType) {
    case 'application/pdf':
      return startsWith(head, PDF);
    case 'application/vnd.openxmlformats-officedocument.wordprocessingml.document':
      return startsWith(head, ZIP);
    case 'text/plain':
    case 'text/markdown':
    case 'text/csv':
      return isUtf8Text(head);
    default:
      return false;
  }
}
