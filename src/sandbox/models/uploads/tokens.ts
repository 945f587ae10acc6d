// Upload tokens: the only credential the storage endpoint accepts. A token is
// HMAC-signed by the sandbox secret and names one upload row and its expiry, so
// the storage endpoint needs neither an API key nor any other state to trust it.
// "Good for one upload only" is not in the token: the upload row's state is the
// single source of truth (see store.ts), so a replayed token finds it consumed.
import { createHmac, timingSafeEqual } from 'node:crypto';

const VERSION = 'v1';

/** What a token grants: one PUT of bytes to one upload, until `expiresAt`. */
export interface UploadTokenClaims {
  /** Id of the row in the `uploads` table. */
  uploadId: string;
  /** Epoch ms after which the storage endpoint refuses to start the upload. */
  expiresAt: number;
}

export type TokenCheck = { ok: true; claims: UploadTokenClaims } | { ok: false; reason: 'malformed' | 'bad_signature' | 'expired' };

function sign(secret: string | Uint8Array, payload: string): Buffer {
  // Domain-separate from every other use of the sandbox secret (cursors, keys).
  return createHmac('sha256', secret).update(`upload-token:${VERSION}:${payload}`).digest();
}

export function mintUploadToken(secret: string | Uint8Array, claims: UploadTokenClaims): string {
  const payload = Buffer.from(JSON.stringify({ u: claims.uploadId, e: claims.expiresAt })).toString('base64url');
  return `${VERSION}.${payload}.${sign(secret, payload).toString('base64url')}`;
}

/** Checks signature first (a forged token learns nothing), then expiry against `now`. */
export function verifyUploadToken(secret: string | Uint8Array, token: string, now: number): TokenCheck {
  const [version, payload, signature, ...rest] = token.split('.');
  if (rest.length > 0 || version !== VERSION || !payload || !signature) return { ok: false, reason: 'malformed' };
  // Compare the text, not decoded bytes (as a cursor is): base64 has several spellings of the same
  // bytes (the last character's spare bits), and only the one minted is the token.
  const expected = Buffer.from(sign(secret, payload).toString('base64url'), 'utf8');
  const given = Buffer.from(signature, 'utf8');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'bad_signature' };
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return { ok: false, reason: 'malformed' };
  }
  if (decoded === null || typeof decoded !== 'object' || !('u' in decoded) || !('e' in decoded)) return { ok: false, reason: 'malformed' };
  const { u, e } = decoded;
  if (typeof u !== 'string' || typeof e !== 'number') return { ok: false, reason: 'malformed' };
  if (now >= e) return { ok: false, reason: 'expired' };
  return { ok: true, claims: { uploadId: u, expiresAt: e } };
}
