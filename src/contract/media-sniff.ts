// Media type from the leading bytes of a file, never from its name or the
// Content-Type the client sent. Each format is accepted only when its header is
// complete (a file that ends inside its header is `truncated`), and images
// report their pixel dimensions from that header.
//
// `head` is the start of the file; `totalSize` is the whole file's size, so a
// header that runs past `head` (a JPEG with big EXIF segments) is told apart
// from a file that really ends there.

export type MediaKind = 'image' | 'video' | 'document';

export interface SniffedMedia {
  mimeType: string;
  kind: MediaKind;
  width: number | null;
  height: number | null;
}

export type SniffResult = ({ ok: true } & SniffedMedia) | { ok: false; reason: 'unknown' | 'truncated' };

/** How many leading bytes callers should read before sniffing. */
export const SNIFF_HEAD_BYTES = 256 * 1024;

const TRUNCATED = { ok: false, reason: 'truncated' } as const;
const UNKNOWN = { ok: false, reason: 'unknown' } as const;

const startsWith = (b: Uint8Array, sig: readonly number[], at = 0) => b.length >= at + sig.length && sig.every((v, i) => b[at + i] === v);
const ascii = (b: Uint8Array, from: number, to: number) => Buffer.from(b.subarray(from, to)).toString('latin1');

const image = (mimeType: string, width: number | null, height: number | null): SniffResult => ({ ok: true, mimeType, kind: 'image', width, height });

export function sniffMedia(head: Uint8Array, totalSize: number = head.length): SniffResult {
  const b = Buffer.from(head.buffer, head.byteOffset, head.byteLength);
  // A signature prefix that the file is too short to complete is a truncated file of that type.
  const prefixOf = (sig: readonly number[]) => b.length < sig.length && sig.slice(0, b.length).every((v, i) => b[i] === v) && b.length > 0;

  if (startsWith(b, [0xff, 0xd8, 0xff])) return sniffJpeg(b, totalSize);
  if (startsWith(b, PNG_SIG)) return sniffPng(b);
  if (startsWith(b, [0x47, 0x49, 0x46, 0x38])) return sniffGif(b); // "GIF8"
  if (startsWith(b, [0x52, 0x49, 0x46, 0x46])) return sniffRiff(b); // "RIFF"
  if (b.length >= 8 && ascii(b, 4, 8) === 'ftyp') return sniffFtyp(b);
  if (startsWith(b, EBML_SIG)) return sniffEbml(b);
  if (startsWith(b, [0x25, 0x50, 0x44, 0x46, 0x2d])) return { ok: true, mimeType: 'application/pdf', kind: 'document', width: null, height: null };
  if ([[0xff, 0xd8, 0xff], PNG_SIG, [0x47, 0x49, 0x46, 0x38], [0x52, 0x49, 0x46, 0x46], EBML_SIG].some(prefixOf)) return TRUNCATED;
  return UNKNOWN;
}

const PNG_SIG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] as const;
const EBML_SIG = [0x1a, 0x45, 0xdf, 0xa3] as const;

function sniffPng(b: Buffer): SniffResult {
  // Signature (8) + IHDR chunk: length (4) "IHDR" (4) data (13) CRC (4).
  if (b.length < 33) return TRUNCATED;
  if (ascii(b, 12, 16) !== 'IHDR' || b.readUInt32BE(8) !== 13) return UNKNOWN;
  return image('image/png', b.readUInt32BE(16), b.readUInt32BE(20));
}

function sniffGif(b: Buffer): SniffResult {
  // "GIF87a"/"GIF89a" then the logical screen descriptor (7 bytes).
  if (b.length < 6) return TRUNCATED;
  const version = ascii(b, 0, 6);
  if (version !== 'GIF87a' && version !== 'GIF89a') return UNKNOWN;
  if (b.length < 13) return TRUNCATED;
  return image('image/gif', b.readUInt16LE(6), b.readUInt16LE(8));
}

function sniffRiff(b: Buffer): SniffResult {
  if (b.length < 12) return TRUNCATED;
  if (ascii(b, 8, 12) !== 'WEBP') return UNKNOWN; // RIFF but WAV/AVI: not accepted
  if (b.length < 20) return TRUNCATED;
  const chunk = ascii(b, 12, 16);
  if (chunk === 'VP8X') {
    if (b.length < 30) return TRUNCATED;
    return image('image/webp', b.readUIntLE(24, 3) + 1, b.readUIntLE(27, 3) + 1);
  }
  if (chunk === 'VP8L') {
    if (b.length < 25) return TRUNCATED;
    if (b[20] !== 0x2f) return UNKNOWN;
    const bits = b.readUInt32LE(21);
    return image('image/webp', (bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
  }
  if (chunk === 'VP8 ') {
    if (b.length < 30) return TRUNCATED;
    if (!startsWith(b, [0x9d, 0x01, 0x2a], 23)) return UNKNOWN;
    return image('image/webp', b.readUInt16LE(26) & 0x3fff, b.readUInt16LE(28) & 0x3fff);
  }
  return UNKNOWN;
}

function sniffJpeg(b: Buffer, totalSize: number): SniffResult {
  // Walk the marker segments after SOI until a start-of-frame, which holds the size.
  let at = 2;
  for (;;) {
    if (at + 4 > b.length) return at + 4 > totalSize ? TRUNCATED : image('image/jpeg', null, null);
    if (b[at] !== 0xff) return UNKNOWN;
    const marker = b[at + 1]!;
    if (marker === 0xff) {
      at += 1;
      continue;
    } // fill byte
    const length = b.readUInt16BE(at + 2);
    if (length < 2) return UNKNOWN;
    const isSof = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isSof) {
      if (at + 9 > b.length) return at + 9 > totalSize ? TRUNCATED : image('image/jpeg', null, null);
      return image('image/jpeg', b.readUInt16BE(at + 7), b.readUInt16BE(at + 5));
    }
    if (marker === 0xda || marker === 0xd9) return UNKNOWN; // scan or end before any frame header
    at += 2 + length;
  }
}

/** ISO base media brands we accept, by the media type they mean. */
const FTYP_BRANDS: Record<string, string> = {
  'qt  ': 'video/quicktime',
  isom: 'video/mp4',
  iso2: 'video/mp4',
  iso4: 'video/mp4',
  iso5: 'video/mp4',
  iso6: 'video/mp4',
  mp41: 'video/mp4',
  mp42: 'video/mp4',
  avc1: 'video/mp4',
  'M4V ': 'video/mp4',
  M4VP: 'video/mp4',
  dash: 'video/mp4',
  mmp4: 'video/mp4',
  MSNV: 'video/mp4',
};

function sniffFtyp(b: Buffer): SniffResult {
  // Box: size (4) "ftyp" (4) major brand (4) minor version (4) compatible brands (4 each).
  const size = b.readUInt32BE(0);
  if (size < 16 || size % 4 !== 0 || size > 4096) return UNKNOWN;
  if (b.length < size) return TRUNCATED;
  const brands = [ascii(b, 8, 12)];
  for (let at = 16; at + 4 <= size; at += 4) brands.push(ascii(b, at, at + 4));
  // The major brand decides; a generic major brand may defer to a compatible one (e.g. "qt  ").
  for (const brand of brands) {
    const mime = FTYP_BRANDS[brand];
    if (mime) return { ok: true, mimeType: mime, kind: 'video', width: null, height: null };
  }
  return UNKNOWN; // heic, M4A, 3gp...: not accepted
}

/** EBML variable-length integer at `at`: its byte length and value (marker bit removed). */
function readVint(b: Buffer, at: number): { length: number; value: number } | 'truncated' | 'invalid' {
  if (at >= b.length) return 'truncated';
  const first = b[at]!;
  let length = 1;
  while (length <= 8 && !(first & (0x80 >> (length - 1)))) length++;
  if (length > 8) return 'invalid';
  if (at + length > b.length) return 'truncated';
  let value = first & (0xff >> length);
  for (let i = 1; i < length; i++) value = value * 256 + b[at + i]!;
  return { length, value };
}

function sniffEbml(b: Buffer): SniffResult {
  // EBML header element: ID 1A45DFA3, size, then children; DocType (ID 4282) must be "webm".
  const size = readVint(b, 4);
  if (size === 'truncated') return TRUNCATED;
  if (size === 'invalid') return UNKNOWN;
  const start = 4 + size.length;
  const end = start + size.value;
  if (end > b.length) return TRUNCATED;
  for (let at = start; at < end;) {
    // Element IDs keep their length marker: 1 byte (Void, CRC-32) or 2 bytes (header children).
    const idLength = b[at]! & 0x80 ? 1 : b[at]! & 0x40 ? 2 : 0;
    if (idLength === 0 || at + idLength > end) return UNKNOWN;
    const id = idLength === 1 ? b[at]! : b.readUInt16BE(at);
    const len = readVint(b, at + idLength);
    if (typeof len === 'string') return UNKNOWN;
    const dataAt = at + idLength + len.length;
    if (id === 0x4282) {
      const docType = ascii(b, dataAt, dataAt + len.value).replace(/\0+$/, '');
      return docType === 'webm' ? { ok: true, mimeType: 'video/webm', kind: 'video', width: null, height: null } : UNKNOWN;
    }
    at = dataAt + len.value;
  }
  return UNKNOWN;
}
