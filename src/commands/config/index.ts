// Definitions of the config group (data only).
import { command } from '../../cli/command-input.js';
import type { CommandSpec } from '../../cli/registry.js';

const KEYS = 'base-url (per profile), profile (the current one), output, request-timeout, connect-timeout, retries, retry-budget';

export const configCommands: CommandSpec[] = [
  command({
    path: ['config', 'get'],
    description: 'Print one setting',
    args: [{ name: 'key', description: KEYS, required: true }],
    load: () => import('./get.js'),
  }),
  command({
    path: ['config', 'set'],
    description: 'Change one setting',
    args: [
      { name: 'key', description: KEYS, required: true },
      { name: 'value', description: 'new value', required: true },
    ],
    examples: ['adops config set output json', 'adops config set base-url https://api.example.com', 'adops config set profile sandbox'],
    load: () => import('./set.js'),
  }),
  command({
    path: ['config', 'list'],
    description: 'Print every setting and where its value comes from',
    load: () => import('./list.js'),
  }),
];
