// How the plan commands show the service's judgement of a Line Item (its
// validation problems, what readiness misses) on stderr, one line each, so a
// person sees the reasons while stdout keeps the object a script reads.
import { asText } from '../../cli/output/sanitize.js';

export interface Problem {
  code?: unknown;
  field?: unknown;
  message?: unknown;
  problems?: unknown;
}

export function problemLines(problems: unknown, indent = '  '): string[] {
  if (!Array.isArray(problems)) return [];
  return (problems as Problem[]).flatMap((p) => [
    `${indent}${asText(p.code ?? 'problem')}${typeof p.field === 'string' ? ` (${p.field})` : ''}: ${asText(p.message ?? '')}`,
    ...problemLines(p.problems, indent + '  '),
  ]);
}
