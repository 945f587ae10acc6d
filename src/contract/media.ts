// What a file's bytes really are, for the CLI to send the true Content-Type
// (never trusting the extension) and to refuse what the service would refuse
// before reserving anything. Images and videos use the one signature table in
// ./media-sniff.ts, which the sandbox's finalize uses too, so the CLI and the
// service judge alike.
import { ASSET_CONTENT_TYPES } from './ids.js';
import { SNIFF_HEAD_BYTES, sniffMedia, type SniffResult } from './media-sniff.js';

export { SNIFF_HEAD_BYTES, sniffMedia, type SniffResult };

/** Media types the Assets API accepts. */
const ASSET_MEDIA: ReadonlySet<string> = new Set(ASSET_CONTENT_TYPES);

export const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

const startsWith = (b: Uint8Array, sig: readonly number[]) => b.length >= sig.length && sig.every((v, i) => b[i] === v);

function isUtf8Text(head: Uint8Array): boolean {
  if (head.length === 0 || head.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(head, { stream: true });
    return true;
  } catch {
    return false;
  }
}

/** A person's words for bytes we do not accept ("a ZIP archive", "binary data"). */
export function describeBytes(head: Uint8Array): string {
  if (head.length === 0) return 'an empty file';
  const sniffed = sniffMedia(head);
  if (sniffed.ok) return sniffed.mimeType;
  if (sniffed.reason === 'truncated') return 'a file that ends inside its header';
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04])) return 'a ZIP archive';
  if (startsWith(head, [0x1f, 0x8b])) return 'gzip data';
  if (startsWith(head, [0x7f, 0x45, 0x4c, 0x46])) return 'an ELF executable';
  if (startsWith(head, [0x52, 0x49, 0x46, 0x46])) return 'a RIFF file that is not WebP (WAV/AVI?)';
  if (head.length >= 8 && Buffer.from(head.subarray(4, 8)).toString('latin1') === 'ftyp') return 'an ISO media file of a brand not accepted (HEIC, M4A, 3GP?)';
  if (startsWith(head, [0x1a, 0x45, 0xdf, 0xa3])) return 'a Matroska file that is not WebM';
  if (isUtf8Text(head)) return 'text';
  return 'binary data of no known type';
}

export type Judged = { ok: true; contentType: string } | { ok: false; looksLike: string };

/** The Asset media type of these bytes, or what they look like instead. */
export function judgeAsset(head: Uint8Array, totalSize: number): Judged {
  const sniffed = sniffMedia(head, totalSize);
  if (sniffed.ok && ASSET_MEDIA.has(sniffed.mimeType)) return { ok: true, contentType: sniffed.mimeType };
  return { ok: false, looksLike: describeBytes(head) };
}

const TEXT_BY_EXTENSION: Record<string, string> = { md: 'text/markdown', markdown: 'text/markdown', csv: 'text/csv' };

/**
 * The Document media type of these bytes. Bytes decide the family (PDF,
 * OOXML container, UTF-8 text); among text types, which cannot be told apart
 * by content, the extension picks Markdown or CSV, else plain text.
 */
export function judgeDocument(head: Uint8Array, filename: string): Judged {
  if (startsWith(head, [0x25, 0x50, 0x44, 0x46, 0x2d])) return { ok: true, contentType: 'application/pdf' };
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04]) && /\.docx$/i.test(filename)) return { ok: true, contentType: DOCX };
  if (isUtf8Text(head)) {
    const ext = /\.([a-z0-9]+)$/i.exec(filename)?.[1]?.toLowerCase() ?? '';
    return { ok: true, contentType: TEXT_BY_EXTENSION[ext] ?? 'text/plain' };
  }
  return { ok: false, looksLike: describeBytes(head) };
}

/**
 * 1536 → "1.5 KiB", 2000 → "1.95 KiB", 26214400 → "25 MiB": three significant
 * digits, exact bytes below 1 KiB. `fixed` keeps trailing zeros ("1.50 KiB")
 * so a progress line does not jitter as it updates.
 */
export function humanBytes(n: number, fixed = false): string {
  if (!Number.isFinite(n) || n < 1024) return `${n} B`;
  const units = ['KiB', 'MiB', 'GiB', 'TiB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  const text = v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2);
  return `${fixed ? text : Number(text)} ${units[i]}`;
}
