// Definition of `adops demo` (data only): the README's first command.
import { command } from '../../cli/command-input.js';
import type { CommandSpec } from '../../cli/registry.js';

export const demoCommands: CommandSpec[] = [
  command({
    path: ['demo'],
    description: 'A short tour of real adops commands against a throwaway local sandbox (needs no account)',
    notes:
      'Starts an in-memory sandbox, points a temporary config dir at it, and runs adops itself for each step, printing "$ adops …" and its output. ' +
      'The demo key goes to the steps in ADOPS_API_KEY, never on a command line; your own config is not read or changed. ' +
      'Exits 0 when every step behaved as expected, 1 otherwise.',
    examples: ['adops demo', 'npm ci && npm run demo'],
    load: () => import('./run.js'),
  }),
];
