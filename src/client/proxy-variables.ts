// The names a proxy comes from, once (#26): the proxy rules (proxy.ts) ask them
// in this order, and the entry decision (cli/route.ts) declines the stored-read
// bundle, which has no proxy tunnel, when any is set. Plain data: it is in
// bin/adops.js's dist/bundle/route.cjs, which must stay at bare node's start-up.

/** Every proxy variable, in the order an https origin asks them (an http origin: the last two). Lowercase wins, as curl. */
export const PROXY_VARIABLES = ['https_proxy', 'HTTPS_PROXY', 'http_proxy', 'HTTP_PROXY'] as const;

/** Any proxy variable is set (even to '', which means "no proxy" for proxy.ts): this run may go through a proxy. */
export function proxyVariableSet(env: Readonly<Record<string, string | undefined>>): boolean {
  return PROXY_VARIABLES.some((name) => env[name] !== undefined);
}
