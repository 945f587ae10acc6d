// A resolve hook for scripts/mcp-conformance.mjs on Node 20: the conformance suite's bundle imports
// fs.globSync (Node 22+) at load, for its tier-check command alone. Its `fs` import gets node:fs plus a
// globSync that throws if ever called, so the `server` and `list` commands load. No other module is touched.
const SHIM =
  "data:text/javascript,export * from 'node:fs'; export { default } from 'node:fs'; " +
  "export function globSync() { throw new Error('fs.globSync needs Node 22 (conformance tier-check)'); }";

export async function resolve(specifier, context, next) {
  const fromSuite = context.parentURL?.includes('/@modelcontextprotocol/conformance/') === true;
  if (fromSuite && (specifier === 'fs' || specifier === 'node:fs')) return { url: SHIM, shortCircuit: true };
  return next(specifier, context);
}
