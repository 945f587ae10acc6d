import { describe, expect, it } from 'vitest';
import { checkBaseUrl, InsecureBaseUrlError, joinPath } from '../../../src/client/origin.js';
import { fillPath } from '../../../src/contract/operations.js';

describe('base URL policy', () => {
  it('accepts https anywhere and http to loopback only', () => {
    expect(checkBaseUrl('https://api.example.com').origin).toBe('https://api.example.com');
    for (const ok of ['http://127.0.0.1:4010', 'http://localhost:1', 'http://[::1]:8080', 'http://127.5.6.7']) expect(() => checkBaseUrl(ok)).not.toThrow();
    // Only literal loopback addresses and localhost itself: a *.localhost name is whatever DNS says.
    for (const bad of ['http://evil.localhost:4010', 'http://a.b.localhost', 'http://localhost.evil.com', 'http://127.0.0.1.nip.io'])
      expect(() => checkBaseUrl(bad), bad).toThrow(InsecureBaseUrlError);
    expect(() => checkBaseUrl('http://127.1')).not.toThrow();
    for (const bad of ['http://api.example.com', 'http://10.0.0.1', 'http://192.168.1.1:4010', 'ftp://x', 'not a url', 'https://u:p@api.example.com']) {
      expect(() => checkBaseUrl(bad)).toThrow(InsecureBaseUrlError);
    }
  });
  it('keeps the base path prefix and refuses paths that could change origin', () => {
    expect(joinPath(new URL('https://h/api/'), '/observe/campaigns')).toBe('/api/observe/campaigns');
    expect(() => joinPath(new URL('https://h'), '//evil.example/x')).toThrow();
    expect(() => joinPath(new URL('https://h'), 'observe')).toThrow();
  });
});

describe('path encoding', () => {
  it('percent-encodes ids so ../, ? and # cannot reach another path or query', () => {
    expect(fillPath('/assets/{id}', { id: '../mutations' })).toBe('/assets/..%2Fmutations');
    expect(fillPath('/assets/{id}', { id: 'a?limit=1#x' })).toBe('/assets/a%3Flimit%3D1%23x');
    expect(fillPath('/observe/{advertiserId}/campaigns/{id}', { advertiserId: 'acc_1', id: '12 3' })).toBe('/observe/acc_1/campaigns/12%203');
  });
  it('sends the ids . and .. as one literal segment, not a dot segment (GET /assets/.. is GET /)', () => {
    expect(fillPath('/assets/{id}', { id: '..' })).toBe('/assets/%2E%2E');
    expect(fillPath('/assets/{id}', { id: '.' })).toBe('/assets/%2E');
    expect(fillPath('/assets/{id}', { id: '...' })).toBe('/assets/...');
    expect(fillPath('/assets/{id}', { id: '.hidden' })).toBe('/assets/.hidden');
  });
  it("refuses an id holding a lone surrogate by the parameter it is in (not encodeURIComponent's bare URIError)", () => {
    expect(() => fillPath('/assets/{id}', { id: 'ast_\ud800' })).toThrow(/^path parameter id is not well-formed text .*"ast_\\ud800"$/);
    expect(fillPath('/assets/{id}', { id: 'ast_\u{1f600}' })).toBe('/assets/ast_%F0%9F%98%80');
  });
});
