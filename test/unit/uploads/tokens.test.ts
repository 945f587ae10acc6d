import { describe, expect, it } from 'vitest';
import { mintUploadToken, verifyUploadToken } from '../../../src/sandbox/models/uploads/tokens.js';

const secret = Buffer.alloc(32, 7);
const now = Date.UTC(2026, 9, 1);

describe('upload tokens', () => {
  it('round-trips the upload id and expiry', () => {
    const token = mintUploadToken(secret, { uploadId: 'upl_1', expiresAt: now + 1000 });
    expect(token).toMatch(/^v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(verifyUploadToken(secret, token, now)).toEqual({ ok: true, claims: { uploadId: 'upl_1', expiresAt: now + 1000 } });
  });

  it('refuses a token at and after its expiry', () => {
    const token = mintUploadToken(secret, { uploadId: 'upl_1', expiresAt: now + 1000 });
    expect(verifyUploadToken(secret, token, now + 999).ok).toBe(true);
    expect(verifyUploadToken(secret, token, now + 1000)).toEqual({ ok: false, reason: 'expired' });
  });

  it('refuses a token signed by another secret, or with an edited payload', () => {
    const token = mintUploadToken(secret, { uploadId: 'upl_1', expiresAt: now + 1000 });
    expect(verifyUploadToken(Buffer.alloc(32, 8), token, now)).toEqual({ ok: false, reason: 'bad_signature' });
    const [v, , sig] = token.split('.');
    const longer = Buffer.from(JSON.stringify({ u: 'upl_1', e: now + 10_000_000 })).toString('base64url');
    expect(verifyUploadToken(secret, `${v}.${longer}.${sig}`, now)).toEqual({ ok: false, reason: 'bad_signature' });
    const other = Buffer.from(JSON.stringify({ u: 'upl_2', e: now + 1000 })).toString('base64url');
    expect(verifyUploadToken(secret, `${v}.${other}.${sig}`, now)).toEqual({ ok: false, reason: 'bad_signature' });
  });

  it('refuses garbage', () => {
    for (const t of ['', 'v1', 'v1..', 'v2.a.b', 'a.b.c.d', 'v1.@@.##']) {
      expect(verifyUploadToken(secret, t, now).ok).toBe(false);
    }
  });
});
