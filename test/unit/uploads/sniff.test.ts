import { describe, expect, it } from 'vitest';
import { sniffMedia } from '../../../src/contract/media-sniff.js';
import { SAMPLES, gif, jpeg, png, webm, webpVp8, webpVp8l, webpVp8x } from './media-samples.js';

describe('sniffMedia', () => {
  it.each(SAMPLES)('recognizes a real $name by its leading bytes', ({ bytes, mimeType, kind }) => {
    const result = sniffMedia(bytes());
    expect(result).toMatchObject({ ok: true, mimeType, kind });
  });

  it.each(SAMPLES)('accepts a $name cut right after its header, and calls one byte less truncated', ({ bytes, headerBytes, mimeType }) => {
    const full = bytes();
    expect(sniffMedia(full.subarray(0, headerBytes))).toMatchObject({ ok: true, mimeType });
    expect(sniffMedia(full.subarray(0, headerBytes - 1))).toEqual({ ok: false, reason: 'truncated' });
  });

  it('reads image dimensions from each header', () => {
    expect(sniffMedia(jpeg(1080, 1350))).toMatchObject({ width: 1080, height: 1350 });
    expect(sniffMedia(png(320, 200))).toMatchObject({ width: 320, height: 200 });
    expect(sniffMedia(gif(16, 9))).toMatchObject({ width: 16, height: 9 });
    expect(sniffMedia(webpVp8x(1200, 628))).toMatchObject({ width: 1200, height: 628 });
    expect(sniffMedia(webpVp8l(100, 50))).toMatchObject({ mimeType: 'image/webp', width: 100, height: 50 });
    expect(sniffMedia(webpVp8(64, 48))).toMatchObject({ mimeType: 'image/webp', width: 64, height: 48 });
  });

  it('finds a JPEG frame header behind a large EXIF segment, and tells a long header from a cut file', () => {
    const big = jpeg(800, 600, 60_000);
    expect(sniffMedia(big)).toMatchObject({ ok: true, width: 800, height: 600 });
    // Only the first 1 KiB read, but the file goes on: still a JPEG, size unknown.
    expect(sniffMedia(big.subarray(0, 1024), big.length)).toMatchObject({ ok: true, mimeType: 'image/jpeg', width: null });
    // The file really ends there: truncated.
    expect(sniffMedia(big.subarray(0, 1024))).toEqual({ ok: false, reason: 'truncated' });
  });

  it('refuses formats that are not accepted, even with a known container', () => {
    expect(sniffMedia(Buffer.from('hello, world'))).toEqual({ ok: false, reason: 'unknown' });
    expect(sniffMedia(Buffer.alloc(0))).toEqual({ ok: false, reason: 'unknown' });
    expect(sniffMedia(webm('matroska'))).toEqual({ ok: false, reason: 'unknown' });
    const wav = Buffer.from([...Buffer.from('RIFF'), 36, 0, 0, 0, ...Buffer.from('WAVEfmt ')]);
    expect(sniffMedia(wav)).toEqual({ ok: false, reason: 'unknown' });
    const heic = Buffer.from([0, 0, 0, 24, ...Buffer.from('ftypheic'), 0, 0, 0, 0, ...Buffer.from('mif1heic')]);
    expect(sniffMedia(heic)).toEqual({ ok: false, reason: 'unknown' });
    expect(sniffMedia(Buffer.from('GIF88a\x10\x00\x10\x00\x00\x00\x00', 'latin1'))).toEqual({ ok: false, reason: 'unknown' });
  });

  it('calls a bare signature prefix truncated', () => {
    expect(sniffMedia(Buffer.from([0x89, 0x50, 0x4e]))).toEqual({ ok: false, reason: 'truncated' });
    expect(sniffMedia(Buffer.from([0xff, 0xd8]))).toEqual({ ok: false, reason: 'truncated' });
  });
});
