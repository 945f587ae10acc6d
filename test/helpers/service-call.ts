// A test's set-up straight through the service's own API (what a test then judges runs through the CLI): one
// request with the key, a body as JSON, an Idempotency-Key on a write; a non-2xx answer fails the set-up, naming
// the request. Only fetch: no sandbox or CLI module is loaded for it (test/helpers/sandbox.ts `request` also records
// answers for the contract check and sits beside the sandbox's import).
export async function serviceCall<T = Record<string, unknown>>(base: string, key: string, method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${key}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...(method !== 'GET' ? { 'idempotency-key': `setup-${method}-${path}-${Date.now()}-${Math.random().toString(36).slice(2)}` } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return JSON.parse(text) as T;
}
