// Issue #34 §3: the masking functions against a hostile service and a hostile
// environment. (1) A proxy URL's user info runs to the LAST '@' a URL parser
// could take for its end: "http://ops:pa/ss@WORD5/x@host:port" showed
// "WORD5/x". (2) A remembered secret is masked in every form a service could
// echo it in (case, URL and form encoding, JSON escapes, base64 and base64url
// at any alignment), and the `acr_` net catches an unknown key in any case.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseProxy, ProxySettingError, showProxy } from '../../../src/client/proxy.js';
import { holdsKey, maskKey, redactHeaders, redactText, redactUrl, rememberSecret, secretForms, showWhole } from '../../../src/client/redact.js';
import { blockText, csvText, jsonText, lineText } from '../../../src/cli/output/sanitize.js';

/** A password that WHATWG URL cannot parse and whose every piece must stay hidden. */
const WORD = 'WORD5';

/** The route's shown form, or the setting error's message. */
function shownOrRefused(raw: string): string {
  try {
    return parseProxy(raw, 'HTTPS_PROXY').shown;
  } catch (err) {
    expect(err).toBeInstanceOf(ProxySettingError);
    return err instanceof Error ? err.message : '';
  }
}

describe('a proxy password holding "/", "@", "?", "#", ":" or escapes is masked to the last "@"', () => {
  // [as written, as it must be shown]: several '@', '/', '?', '#', ':' and percent-encoding in the password; no scheme; https.
  const cases: Array<[string, string]> = [
    [`http://ops:pa/ss@${WORD}/x@host:port`, 'http://ops:***@host:port'],
    [`http://ops:pa@${WORD}@x@host:3128`, 'http://ops:***@host:3128'],
    [`http://ops:pa?ss@${WORD}#x@host:3128`, 'http://ops:***@host:3128'],
    [`http://ops:pa:ss@${WORD}:x@host:3128`, 'http://ops:***@host:3128'],
    [`http://ops:p%40ss%2F@${WORD}%2Fx@host:3128`, 'http://ops:***@host:3128'],
    [`https://ops:pa/ss@${WORD}/x@proxy.corp:443`, 'https://ops:***@proxy.corp:443'],
  ];

  it('redactText (every message, note, trace and cell): in a sentence, in quotes, in JSON', () => {
    for (const [raw, shown] of cases) {
      expect(redactText(`HTTPS_PROXY is not a URL: ${raw} (fix it)`), raw).toBe(`HTTPS_PROXY is not a URL: ${shown} (fix it)`);
      expect(redactText(`"${raw}"`), raw).toBe(`"${shown}"`);
      expect(redactText(JSON.stringify({ proxy: raw })), raw).toBe(JSON.stringify({ proxy: shown }));
    }
    // Without a scheme (a proxy variable as "user:password@host:port").
    expect(redactText(`proxy ops:pa/ss@${WORD}/x@proxy.corp:3128 refused`)).toBe('proxy ops:***@proxy.corp:3128 refused');
    expect(redactText(`ops:pa@${WORD}@host:3128`)).toBe('ops:***@host:3128');
    // A lone user (a token) to the last '@' before the path.
    expect(redactText(`http://tok@${WORD}@proxy:3128/x`)).toBe('http://REDACTED@proxy:3128/x');
  });

  it('redactUrl (a traced request URL, a Location header) masks the whole user info before it cuts the URL', () => {
    for (const [raw] of cases) {
      const out = redactUrl(`${raw}/path?x=1`);
      expect(out, raw).not.toContain(WORD);
      expect(out, raw).not.toMatch(/pa[/@?:%]/);
      expect(out, raw).toMatch(/^https?:\/\/REDACTED@(host|proxy\.corp):\w+\/path\?x=1$/);
    }
    expect(redactHeaders({ location: `https://u:pa/ss@${WORD}/x@evil.test/` }).location).toBe('https://REDACTED@evil.test/');
  });

  it('showProxy and parseProxy (config list, doctor, errors, --debug) never show a piece of the password', () => {
    for (const [raw, shown] of cases) {
      expect(showProxy(raw), raw).toBe(shown);
      const message = shownOrRefused(raw);
      expect(message, raw).not.toContain(WORD);
      expect(message, raw).toContain('ops:***@');
    }
    expect(showProxy(`ops:pa/ss@${WORD}/x@host:3128`)).toBe('http://ops:***@host:3128');
    // A password WHATWG URL parses (its last '@' ends the user info): sent whole, shown masked.
    const route = parseProxy(`http://ops:pa@${WORD}@127.0.0.1:3128`, 'HTTPS_PROXY');
    expect(route.authorization).toBe(`Basic ${Buffer.from(`ops:pa@${WORD}`).toString('base64')}`);
    expect(route.shown).toBe('http://ops:***@127.0.0.1:3128');
    // A password whose '/' would make its first part a port ("ops:1234" as host and port) is refused, not sent there.
    expect(() => parseProxy('http://ops:1234/ss@proxy.corp:3128', 'HTTPS_PROXY')).toThrow(
      'HTTPS_PROXY is not a valid proxy URL: http://ops:***@proxy.corp:3128 (a "/", "?", "#" or "@" in its password must be percent-encoded',
    );
    // A password that does not parse is remembered all the same: echoed later, it is masked.
    expect(() => parseProxy('http://ops:unparsable/Pass@word9@host:port', 'HTTPS_PROXY')).toThrow(ProxySettingError);
    expect(redactText('the proxy said: unparsable/Pass@word9')).toBe('the proxy said: REDACTED');
  });
});

describe('a remembered key is masked in every form a service could echo it in', () => {
  // Characters that encoders change: '/', '+', '"', '\', a space is not a key's (visible ASCII only).
  const KEY = 'acr_h34/Form+Key"esc\\aped_0123456789_wxyz';
  rememberSecret(KEY);
  const b64 = (s: string) => Buffer.from(s).toString('base64');
  const b64url = (s: string) => Buffer.from(s).toString('base64url');
  const forms: Array<[string, string]> = [
    ['as is', KEY],
    ['upper case', KEY.toUpperCase()],
    ['lower case', KEY.toLowerCase()],
    ['mixed case', [...KEY].map((c, i) => (i % 2 ? c.toUpperCase() : c.toLowerCase())).join('')],
    ['encodeURIComponent', encodeURIComponent(KEY)],
    ['encodeURIComponent, lower-case escapes', encodeURIComponent(KEY).replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase())],
    ['encodeURI', encodeURI(KEY)],
    ['form-encoded', new URLSearchParams({ k: KEY }).toString().slice(2)],
    ['JSON-escaped', JSON.stringify(KEY).slice(1, -1)],
    ['JSON-escaped with \\/', JSON.stringify(KEY).slice(1, -1).replace(/\//g, '\\/')],
    ['JSON-escaped, upper case', JSON.stringify(KEY.toUpperCase()).slice(1, -1)],
    ['base64', b64(KEY)],
    ['base64 without padding', b64(KEY).replace(/=+$/, '')],
    ['base64url', b64url(KEY)],
    ['base64 of "Bearer <key>"', b64(`Bearer ${KEY}`)],
    ['base64url of "Bearer <key>"', b64url(`Bearer ${KEY}`)],
    ['base64 of "x:<key>" (Basic)', b64(`x:${KEY}`)],
    ['base64 of a JSON body holding it', b64(JSON.stringify({ token: KEY, n: 1 }))],
  ];
  /** What may never be seen: the key's body, in the form echoed (the masked form shows `acr_…` and the last 4). */
  const leaks = (form: string, out: string) => {
    const body = form.length > 16 ? form.slice(4, -8) : form;
    return out.includes(body) || out.toLowerCase().includes(KEY.slice(4, -4).toLowerCase());
  };

  it('redactText: each form alone and inside a sentence', () => {
    for (const [what, form] of forms) {
      const out = redactText(`the service got ${form} from you`);
      expect(leaks(form, out), `${what}: ${out}`).toBe(false);
      expect(out, what).toMatch(/^the service got /);
    }
  });

  it('each sink of the boundary: a terminal line, a note, a CSV cell, JSON (where escapes double)', () => {
    for (const [what, form] of forms) {
      for (const [sink, out] of [
        ['lineText', lineText(`echo ${form}`)],
        ['blockText', blockText(`echo ${form}`)],
        ['csvText', csvText(`echo ${form}`)],
        ['jsonText', jsonText({ echo: form, [form]: 1 })],
      ] as const) {
        expect(leaks(form, out), `${what} through ${sink}: ${out}`).toBe(false);
        expect(leaks(JSON.stringify(form).slice(1, -1), out), `${what} through ${sink}: ${out}`).toBe(false);
      }
    }
  });

  it('the forms of a secret: its encodings and the base64 runs of each alignment, none shorter than 8 characters', () => {
    const plain = 'acr_plain_key_0001';
    const f = secretForms(plain);
    // Letters, digits and '_' encode to themselves: one text form, then base64 and base64url of each alignment.
    expect(f[0]).toBe(plain);
    for (const prefix of ['', 'x', 'xy']) {
      const whole = Buffer.from(prefix + plain).toString('base64');
      expect(
        f.some((form) => form !== plain && whole.includes(form)),
        `after ${prefix.length} byte(s)`,
      ).toBe(true);
    }
    expect(f.every((x) => x.length >= 8)).toBe(true);
    // '/', '+' and '"' encode differently in each scheme: each is a form of its own.
    expect(secretForms('acr_a+b/c"d_0001')).toEqual(
      expect.arrayContaining([
        'acr_a+b/c"d_0001',
        'acr_a%2Bb%2Fc%22d_0001',
        'acr_a+b/c%22d_0001',
        'acr_a%2Bb%2Fc%22d_0001',
        'acr_a+b/c\\"d_0001',
        'acr_a+b\\/c\\"d_0001',
      ]),
    );
    // A short secret has no base64 form: it would match text that has nothing to do with it.
    expect(secretForms('pass')).toEqual(['pass']);
  });

  it('the acr_ net catches a key this process never held, in any case; masked text is left as it is', () => {
    expect(redactText('got ACR_FOREIGN_SERVICE_KEY_7777 back')).toBe('got acr_…7777 back');
    expect(redactText('got Acr_Foreign_Mixed_8888 back')).toBe('got acr_…8888 back');
    expect(redactText(`shown ${maskKey(KEY)} and ACR_…WXYZ`)).toBe(`shown ${maskKey(KEY)} and ACR_…WXYZ`);
  });

  it('holdsKey: an id or URL that holds a form of the key, or an unmasked acr_ token (answer-check refuses it)', () => {
    for (const [what, form] of forms) expect(holdsKey(`mut_${form}`), what).toBe(true);
    expect(holdsKey('https://storage.test/up/1?t=ACR_OTHER_KEY_1234')).toBe(true);
    expect(holdsKey('mut_3f9a0c1d2e4b5a6978')).toBe(false);
    expect(holdsKey(`shown ${maskKey(KEY)}`)).toBe(false);
    // A proxy password is a secret, not a key: masked when shown, but an id holding it is not refused.
    rememberSecret('proxy-password-h34');
    expect(holdsKey('ast_proxy-password-h34')).toBe(false);
    showWhole('acr_demo_public_0001');
    expect(holdsKey('acr_demo_public_0001')).toBe(false);
  });

  it('holdsKey: acr_ inside a random token is not a key (an upload URL spells it about once in 50,000); a key starting a token is', () => {
    // A sandbox upload URL whose signature spelled it (seen in a 300-file sync, refused as "holds an API key").
    expect(holdsKey('http://127.0.0.1:4010/_storage/uploads/v1.eyJ1IjoidXBsXzEiLCJlIjoxfQ.Qx9ZAcr_Q4kLm2vB8nW0pR6sYd1fH3jK5gU7iO9eC')).toBe(false);
    expect(holdsKey('https://storage.test/up/v1.x.k7acr_Zz')).toBe(false);
    for (const held of ['acr_live_1234', 'https://s.test/u?t=acr_x1', 'mut_acr_other_9', 'https://s.test/up/ACR_OTHER', 'v1.acr_Q.sig', 'a/acr_b'])
      expect(holdsKey(held), held).toBe(true);
    // Base64url text the net refuses only where acr_ starts a token: at the start, after '_' or a delimiter.
    fc.assert(
      fc.property(fc.base64String({ minLength: 4, maxLength: 80 }), (b64) => {
        const token = b64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
        const starts = /(?:^|[^A-Za-z0-9-])acr_/i.test(token);
        expect(holdsKey(`https://s.test/_storage/uploads/v1.${token}`)).toBe(starts);
      }),
    );
  });
});
