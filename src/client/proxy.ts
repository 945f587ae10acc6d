// Which proxy, if any, a request to an origin goes through. The rules are
// undici's EnvHttpProxyAgent's (docs/decisions.md, "Proxies (#14)"), decided
// here, in a module that loads nothing, so a request with no proxy variable
// for its origin never loads undici:
// - https origins: https_proxy, HTTPS_PROXY, then http_proxy, HTTP_PROXY;
//   http origins: http_proxy, HTTP_PROXY. Lowercase wins where both are set
//   (as curl); a variable set to '' means "no proxy".
// - NO_PROXY / no_proxy (lowercase wins): entries split on commas or spaces;
//   `*` bypasses every proxy; `corp.test`, `.corp.test` and `*.corp.test` match
//   that name and every name under it; `host:port` only that port.
// - One rule of ours on top: plain http to a loopback address never goes
//   through a proxy. That is the only plain http adops sends the key over
//   (origin.ts), and through a proxy the key would leave the machine in clear;
//   a proxy's loopback is not ours either.
import { isLoopbackHost } from './origin.js';
import { PROXY_VARIABLES } from './proxy-variables.js';
import { rememberSecret } from './redact.js';

export type Env = Record<string, string | undefined>;

export interface ProxyRoute {
  /** 'http://proxy.corp:3128': where to connect, never with credentials. */
  origin: string;
  protocol: 'http:' | 'https:';
  hostname: string;
  port: number;
  /** 'http://ops:***@proxy.corp:3128': the only form ever shown. */
  shown: string;
  /** The variable it came from ('HTTPS_PROXY', 'http_proxy', ...). */
  variable: string;
  /** 'Basic …' from the URL's user:password, sent to the proxy only. */
  authorization?: string;
}

export type ProxyDecision =
  | { kind: 'proxy'; route: ProxyRoute }
  /** No proxy variable applies to this scheme. */
  | { kind: 'none' }
  /** A proxy is set but this origin goes direct (NO_PROXY, loopback http). */
  | { kind: 'bypass'; reason: string };

/** A proxy variable adops cannot use (bad URL, socks): exit 2 before any request. */
export class ProxySettingError extends Error {
  override readonly name = 'ProxySettingError';
}

/** The proxy's own refusal of the request (407: its credentials), never the service's. */
export class ProxyRefusedError extends Error {
  override readonly name = 'ProxyRefusedError';
  constructor(
    message: string,
    readonly status: number,
    readonly proxy: string,
  ) {
    super(message);
  }
}

/** The proxy's 407: its own credentials (from the variable's user:password) were missing or wrong. */
export function proxyAuthRefused(route: ProxyRoute): ProxyRefusedError {
  return new ProxyRefusedError(`the proxy ${route.shown} (from ${route.variable}) refused the request: 407 Proxy Authentication Required`, 407, route.shown);
}

/** Headers of a request forwarded (absolute-form) through this proxy to `target`. */
export function forwardedHeaders(route: ProxyRoute, target: URL): Record<string, string> {
  return { host: target.host, ...(route.authorization ? { 'proxy-authorization': route.authorization } : {}) };
}

const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443 };

function variable(env: Env, name: string): { name: string; value: string } | undefined {
  const lower = env[name.toLowerCase()];
  if (lower !== undefined) return { name: name.toLowerCase(), value: lower };
  const upper = env[name.toUpperCase()];
  return upper !== undefined ? { name: name.toUpperCase(), value: upper } : undefined;
}

/** The proxy variable that applies to this scheme, before NO_PROXY. */
function proxyVariable(env: Env, protocol: string): { name: string; value: string } | undefined {
  for (const name of protocol === 'https:' ? PROXY_VARIABLES : PROXY_VARIABLES.slice(2)) {
    const value = env[name];
    if (value !== undefined) return { name, value };
  }
  return undefined;
}

/**
 * The user info of a proxy variable as a URL parser reads it: everything between the scheme and the LAST '@'
 * (WHATWG URL and curl take the last '@' of the authority), split at its first ':'. A password may hold '/', '?',
 * '#' and '@' ("http://ops:pa/ss@WORD5/x@host:port": the password is "pa/ss@WORD5/x", whether the URL parses or not).
 */
function userInfoOf(withScheme: string): { scheme: string; user: string; password?: string; host: string } | undefined {
  const m = /^([a-z][a-z0-9+.-]*:\/\/)([\s\S]*)@([\s\S]*)$/i.exec(withScheme);
  if (!m) return undefined;
  const [, scheme = '', info = '', host = ''] = m;
  const colon = info.indexOf(':');
  return colon === -1 ? { scheme, user: info, host } : { scheme, user: info.slice(0, colon), password: info.slice(colon + 1), host };
}

const withScheme = (raw: string) => (/^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `http://${raw}`);

/** 'http://ops:***@host:port' from whatever was written (no scheme means http://): nothing of the password, ever. */
export function showProxy(raw: string): string {
  const info = userInfoOf(withScheme(raw));
  if (!info) return withScheme(raw);
  return `${info.scheme}${info.user}${info.password === undefined ? '' : ':***'}@${info.host}`;
}

export function parseProxy(raw: string, name: string): ProxyRoute {
  const value = withScheme(raw.trim());
  const shown = showProxy(value);
  // Remembered before parsing: a variable that does not parse is named in errors, and its password is masked
  // wherever it may be echoed.
  rememberSecret(userInfoOf(value)?.password);
  // An '@' after the authority ends ("http://ops:12/ss@host:3128") means a '/', '?' or '#' in the password: a
  // URL parser would take part of the password for the host and port and send the rest to it. Refused.
  const rest = value.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '');
  const end = rest.search(/[/?#\\]/);
  if (end !== -1 && rest.slice(end).includes('@'))
    throw new ProxySettingError(
      `${name} is not a valid proxy URL: ${shown} (a "/", "?", "#" or "@" in its password must be percent-encoded: %2F, %3F, %23, %40)`,
    );
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ProxySettingError(`${name} is not a valid proxy URL: ${shown} (expected e.g. http://proxy.corp:3128)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ProxySettingError(`${name} is ${shown}: adops supports http:// and https:// proxies only`);
  }
  const user = decoded(url.username);
  const password = decoded(url.password);
  let authorization: string | undefined;
  if (user || password) {
    authorization = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
    // Masked wherever they might later appear (an echoed error, a trace).
    rememberSecret(password);
    rememberSecret(authorization.slice(6));
  }
  const port = Number(url.port) || DEFAULT_PORTS[url.protocol]!;
  return {
    origin: `${url.protocol}//${url.host}`,
    protocol: url.protocol,
    hostname: url.hostname.replace(/^\[|\]$/g, ''),
    port,
    shown: showProxy(`${url.protocol}//${url.username ? `${url.username}${url.password ? ':x' : ''}@` : ''}${url.host}`),
    variable: name,
    ...(authorization ? { authorization } : {}),
  };
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The NO_PROXY entry that matches host:port, if any. */
export function noProxyMatch(env: Env, hostname: string, port: number): string | undefined {
  const list = variable(env, 'no_proxy');
  if (!list) return undefined;
  if (list.value.trim() === '*') return '*';
  const host = hostname.toLowerCase().replace(/\.$/, '');
  for (const entry of list.value.split(/[,\s]/)) {
    if (!entry) continue;
    const parsed = /^(.+):(\d+)$/.exec(entry);
    // '[::1]:8080' and '[::1]' name the address without brackets.
    const name = (parsed ? parsed[1]! : entry)
      .replace(/^\*?\./, '')
      .replace(/^\[(.*)\]$/, '$1')
      .toLowerCase();
    if (parsed && Number(parsed[2]) !== port) continue;
    if (host === name || host.endsWith(`.${name}`)) return entry;
  }
  return undefined;
}

/** How a request to this origin goes: through which proxy, or directly and why. */
export function decideProxy(origin: string | URL, env: Env): ProxyDecision {
  const url = typeof origin === 'string' ? new URL(origin) : origin;
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  const found = proxyVariable(env, url.protocol);
  if (!found || found.value.trim() === '') return { kind: 'none' };
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname))
    return { kind: 'bypass', reason: 'plain http to a loopback address never goes through a proxy' };
  const port = Number(url.port) || DEFAULT_PORTS[url.protocol] || 0;
  const match = noProxyMatch(env, hostname, port);
  if (match !== undefined) return { kind: 'bypass', reason: `NO_PROXY entry "${match}" matches ${url.host}` };
  return { kind: 'proxy', route: parseProxy(found.value, found.name) };
}

/** The proxy for this origin, or undefined: the one call on every request's path. */
export function proxyFor(origin: string | URL, env: Env): ProxyRoute | undefined {
  const d = decideProxy(origin, env);
  return d.kind === 'proxy' ? d.route : undefined;
}
