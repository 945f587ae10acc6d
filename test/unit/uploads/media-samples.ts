// Minimal but real media files, built in code: each carries its format's true
// signature and a complete header, so the sniffer sees what a real file shows.
import { crc32 } from 'node:zlib';

const u16be = (n: number) => [(n >> 8) & 0xff, n & 0xff];
const u16le = (n: number) => [n & 0xff, (n >> 8) & 0xff];
const u24le = (n: number) => [n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff];
const u32be = (n: number) => [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff];
const u32le = (n: number) => [n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, (n >>> 24) & 0xff];
const text = (s: string) => [...Buffer.from(s, 'latin1')];

export function jpeg(width = 640, height = 480, exifBytes = 0): Buffer {
  const app0 = [0xff, 0xe0, ...u16be(16), ...text('JFIF\0'), 1, 1, 0, 0, 1, 0, 1, 0, 0];
  // An APP1 (EXIF-like) segment of the asked size, to push the frame header further in.
  const app1 = exifBytes > 0 ? [0xff, 0xe1, ...u16be(exifBytes + 2), ...new Array<number>(exifBytes).fill(0x45)] : [];
  const sof0 = [0xff, 0xc0, ...u16be(17), 8, ...u16be(height), ...u16be(width), 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1];
  const sos = [0xff, 0xda, ...u16be(12), 3, 1, 0, 2, 0x11, 3, 0x11, 0, 0x3f, 0, 0x12, 0x34, 0x56];
  return Buffer.from([0xff, 0xd8, ...app0, ...app1, ...sof0, ...sos, 0xff, 0xd9]);
}

function pngChunk(type: string, data: number[]): number[] {
  const body = Buffer.from([...text(type), ...data]);
  return [...u32be(data.length), ...body, ...u32be(crc32(body))];
}

export function png(width = 320, height = 200): Buffer {
  const ihdr = [...u32be(width), ...u32be(height), 8, 6, 0, 0, 0];
  return Buffer.from([
    0x89,
    0x50,
    0x4e,
    0x47,
    0x0d,
    0x0a,
    0x1a,
    0x0a,
    ...pngChunk('IHDR', ihdr),
    ...pngChunk('IDAT', [0x78, 0x9c, 0x03, 0, 0, 0, 0, 1]),
    ...pngChunk('IEND', []),
  ]);
}

export function gif(width = 16, height = 9): Buffer {
  return Buffer.from([...text('GIF89a'), ...u16le(width), ...u16le(height), 0, 0, 0, 0x3b]);
}

export function webpVp8x(width = 1200, height = 628): Buffer {
  const chunk = [...text('VP8X'), ...u32le(10), 0, 0, 0, 0, ...u24le(width - 1), ...u24le(height - 1)];
  return Buffer.from([...text('RIFF'), ...u32le(4 + chunk.length), ...text('WEBP'), ...chunk]);
}

export function webpVp8l(width = 100, height = 50): Buffer {
  const bits = (width - 1) | ((height - 1) << 14);
  const data = [0x2f, ...u32le(bits), 0, 0, 0];
  const chunk = [...text('VP8L'), ...u32le(data.length), ...data];
  return Buffer.from([...text('RIFF'), ...u32le(4 + chunk.length), ...text('WEBP'), ...chunk]);
}

export function webpVp8(width = 64, height = 48): Buffer {
  const data = [0x50, 0x01, 0x00, 0x9d, 0x01, 0x2a, ...u16le(width), ...u16le(height), 0, 0];
  const chunk = [...text('VP8 '), ...u32le(data.length), ...data];
  return Buffer.from([...text('RIFF'), ...u32le(4 + chunk.length), ...text('WEBP'), ...chunk]);
}

function ftyp(major: string, compatible: string[]): number[] {
  const body = [...text(major), ...u32be(0x200), ...compatible.flatMap(text)];
  return [...u32be(8 + body.length), ...text('ftyp'), ...body];
}

export function mp4(): Buffer {
  return Buffer.from([...ftyp('isom', ['isom', 'iso2', 'avc1', 'mp41']), ...u32be(16), ...text('mdat'), ...new Array<number>(8).fill(0)]);
}

export function mov(): Buffer {
  return Buffer.from([...ftyp('qt  ', ['qt  ']), ...u32be(16), ...text('wide'), ...new Array<number>(8).fill(0)]);
}

export function webm(docType = 'webm'): Buffer {
  const el = (id: number[], data: number[]) => [...id, 0x80 | data.length, ...data];
  const header = [
    ...el([0x42, 0x86], [1]),
    ...el([0x42, 0xf7], [1]),
    ...el([0x42, 0xf2], [4]),
    ...el([0x42, 0xf3], [8]),
    ...el([0x42, 0x82], text(docType)),
    ...el([0x42, 0x87], [4]),
    ...el([0x42, 0x85], [2]),
  ];
  // Then the start of a Segment element (unknown size), as a real file has.
  return Buffer.from([0x1a, 0x45, 0xdf, 0xa3, 0x80 | header.length, ...header, 0x18, 0x53, 0x80, 0x67, 0x01, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]);
}

/** Every accepted sample with the type it must sniff as. */
export const SAMPLES: ReadonlyArray<{ name: string; bytes: () => Buffer; mimeType: string; kind: 'image' | 'video'; headerBytes: number }> = [
  { name: 'jpeg', bytes: () => jpeg(), mimeType: 'image/jpeg', kind: 'image', headerBytes: 2 + 18 + 9 },
  { name: 'png', bytes: () => png(), mimeType: 'image/png', kind: 'image', headerBytes: 33 },
  { name: 'gif', bytes: () => gif(), mimeType: 'image/gif', kind: 'image', headerBytes: 13 },
  { name: 'webp', bytes: () => webpVp8x(), mimeType: 'image/webp', kind: 'image', headerBytes: 30 },
  { name: 'mp4', bytes: () => mp4(), mimeType: 'video/mp4', kind: 'video', headerBytes: 32 },
  { name: 'mov', bytes: () => mov(), mimeType: 'video/quicktime', kind: 'video', headerBytes: 20 },
  { name: 'webm', bytes: () => webm(), mimeType: 'video/webm', kind: 'video', headerBytes: 5 + 7 * 4 + 3 },
];
