import { describe, expect, it } from 'vitest';
import { maskKey, redactHeaders, redactText, redactUrl, rememberSecret, rememberUrlSecrets } from '../../../src/client/redact.js';

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
  it('masks a key whole whatever characters it holds (., +, /), known or not', () => {
    for (const odd of ['acr_abc.defghijklmnop', 'acr_ab+cdefgh/ijklmnop', 'acr_x/y.z+w_1234567890']) {
      const out = redactText(`echoed: "${odd}".`);
      expect(out, odd).toBe(`echoed: "acr_…${odd.slice(-4)}".`);
    }
    const foreign = 'sk-not-acr-format-0123456789';
    rememberSecret(foreign);
    expect(redactText(`x ${foreign} y`)).toBe('x REDACTED y');
  });
  it('hides upload tokens that sit in the path', () => {
    const token = 'v1.eyJ1IjoidXBsXzEiLCJlIjoxfQ.c2lnbmF0dXJlLXNpZ25hdHVyZQ';
    expect(redactUrl(`http://127.0.0.1:4010/_storage/uploads/${token}`)).toBe('http://127.0.0.1:4010/_storage/uploads/REDACTED');
    expect(redactUrl(`/_storage/uploads/${token}?x=1`)).toBe('/_storage/uploads/REDACTED?x=1');
    // Ordinary API paths stay readable.
    expect(redactUrl('https://api.example/context/brands/spring-sale-2026/documents/doc_01')).toBe(
      'https://api.example/context/brands/spring-sale-2026/documents/doc_01',
    );
    expect(redactUrl('https://api.example/assets/uploads')).toBe('https://api.example/assets/uploads');
  });
  it('masks the credentials of a URL wherever they are echoed later', () => {
    const token = 'v1.eyJ1IjoidXBsXzIiLCJlIjoxfQ.c2lnbmF0dXJlLXR3by10d28';
    rememberUrlSecrets(`/_storage/uploads/${token}?signature=abcdef123456&expires=9`);
    expect(redactText(`No operation answers GET /_storage/uploads/${token}.`)).toBe('No operation answers GET /_storage/uploads/REDACTED.');
    expect(redactText('sig abcdef123456 expires 9')).toBe('sig REDACTED expires 9');
  });
  it('masks the user info of a URL in free text even when the URL does not parse (a "/" in the password)', () => {
    expect(redactText('HTTPS_PROXY is not a URL: http://ops:pa/ss99Secret@host:port')).toBe('HTTPS_PROXY is not a URL: http://ops:***@host:port');
    expect(redactText('"http://ops:pa/ss?x#y@proxy:3128"')).toBe('"http://ops:***@proxy:3128"');
    expect(redactText('http://token@proxy:3128 and https://u:p@h/x')).toBe('http://REDACTED@proxy:3128 and https://u:***@h/x');
    expect(redactText('proxy ops:pa/ss99Secret@proxy.corp:3128 refused')).toBe('proxy ops:***@proxy.corp:3128 refused');
    // Masked already, and the placeholder of a hint, stay as they are.
    expect(redactText('via http://ops:***@p:1 (http://USER:PASSWORD@host:port)')).toBe('via http://ops:***@p:1 (http://USER:PASSWORD@host:port)');
    // A path holding "@" and a mail address are not credentials.
    expect(redactText('see https://example.com/@name or ops@example.com')).toBe('see https://example.com/@name or ops@example.com');
  });
});
