// The formats the request schemas name (`format: date`, `format: uri`), as the
// sandbox's zod schemas check them: the generated validators
// (./generated/request-validators.ts) call these.

/** A real calendar day written YYYY-MM-DD (2026-02-30 is not one). */
export function date(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const d = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === text;
}

/** A URL as zod's z.url() reads one: what the WHATWG URL parser accepts. */
export function uri(text: string): boolean {
  return URL.canParse(text);
}
