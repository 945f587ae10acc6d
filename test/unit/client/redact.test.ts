import { describe, expect, it } from 'vitest';
import { maskKey, redactHeaders, redactText, redactUrl } from '../../../src/client/redact.js';

const KEY = 'acr_live_secret_value_9f3c';

describe('redaction', () => {
  it('masks a key to its prefix and last 4', () => {
    expect(maskKey(KEY)).toBe('acr_…9f3c');
    expect(maskKey(undefined)).toBe('(none)');
  });
  it('hides the Authorization header value but keeps the scheme', () => {
    const h = redactHeaders({ authorization: `Bearer ${KEY}`, 'user-agent': 'adops/0' });
    expect(h.authorization).toBe('Bearer REDACTED');
    expect(JSON.stringify(h)).not.toContain('secret_value');
  });
  it('hides token and signature query params of upload URLs', () => {
    const out = redactUrl('https://storage.example/up/ast_1?token=abc123&signature=zzz&expires=99');
    expect(out).not.toContain('abc123');
    expect(out).not.toContain('zzz');
    expect(out).toContain('expires=99');
    expect(out).toContain('token=REDACTED');
  });
  it('masks keys found in free text', () => {
    expect(redactText(`failed with ${KEY} in it`)).toBe('failed with acr_…9f3c in it');
  });
});
