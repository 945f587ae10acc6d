// Top-level commands (data only).
import { command } from '../../cli/command-input.js';
import type { CommandSpec } from '../../cli/registry.js';

export const miscCommands: CommandSpec[] = [
  command({
    path: ['api'],
    description: 'Send any request to the service with the same auth, retries, errors and output (the escape hatch)',
    args: [
      { name: 'method', description: 'GET, POST, PATCH or DELETE', required: true },
      { name: 'path', description: 'path under the base URL, e.g. /observe/campaigns?limit=5', required: true },
    ],
    options: [
      { flags: '-f, --field <key=value>', description: 'query parameter (GET/DELETE) or string body field; key.sub nests (repeatable)', type: 'repeat' },
      { flags: '-F, --json-field <key=value>', description: 'body field whose value is JSON: a number, true, null, [..], {..} (repeatable)', type: 'repeat' },
      { flags: '-H, --header <name:value>', description: 'extra request header (repeatable; Authorization is refused)', type: 'repeat' },
      { flags: '--input <file>', description: 'request body from a file, or - for stdin' },
      { flags: '--paginate', description: 'follow nextCursor; json: one document of all rows, ndjson: one row per line' },
    ],
    examples: [
      'adops api GET /observe/campaigns -f limit=5',
      'adops api GET /mutations --paginate --output ndjson',
      'adops api POST /assets/uploads -f filename=logo.png',
    ],
    load: () => import('../api.js'),
  }),
  command({
    path: ['doctor'],
    description: 'Check config, key, reachability, subscription and permissions, and say what to fix',
    load: () => import('../doctor.js'),
  }),
  command({
    path: ['completion'],
    description: 'Print a shell completion script (bash, zsh or fish)',
    args: [{ name: 'shell', description: 'bash, zsh or fish', required: true }],
    examples: [
      'adops completion bash > /etc/bash_completion.d/adops',
      'adops completion zsh > "${fpath[1]}/_adops"',
      'adops completion fish > ~/.config/fish/completions/adops.fish',
    ],
    load: () => import('../completion.js'),
  }),
  command({
    path: ['version'],
    description: 'Print the version (as --version); --json adds Node and the platform',
    examples: ['adops version', 'adops version --json'],
    load: () => import('./version.js'),
  }),
  command({
    path: ['commands'],
    description: 'Print the command tree (--json for machines, --markdown for docs/cli.md)',
    options: [{ flags: '--markdown', description: 'the command reference as Markdown' }],
    load: () => import('../commands-tree.js'),
  }),
];
