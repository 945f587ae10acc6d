// Definitions of the auth group (data only). There is deliberately no --key
// flag: a key on the command line shows in `ps` and shell history.
import { command } from '../../cli/command-input.js';
import type { CommandSpec } from '../../cli/registry.js';

export const authCommands: CommandSpec[] = [
  command({
    path: ['auth', 'login'],
    description: "Store a profile's base URL and API key (hidden prompt on a terminal, or --with-key from stdin)",
    options: [
      { flags: '--with-key', description: 'read the API key from stdin (for scripts): echo "$KEY" | adops auth login --with-key' },
      { flags: '--url <baseUrl>', description: 'base URL to store in the profile' },
      { flags: '--no-verify', description: 'store without asking the service whether the key works' },
      {
        flags: '--set-default',
        description: 'make this profile the default (logging in to a named profile otherwise leaves the default alone, unless it is the first)',
      },
    ],
    examples: [
      'adops auth login',
      'printf %s "$ADOPS_KEY" | adops auth login --with-key --url https://api.example.com',
      'printf %s "$GLOBEX_KEY" | adops auth login --with-key --profile globex --url https://api.example.com',
    ],
    load: () => import('./login.js'),
  }),
  command({
    path: ['auth', 'status'],
    description: 'Show the profile in use, its base URL, organization and (masked) key, and any env override',
    options: [{ flags: '--all', description: "check every stored profile's key against its own base URL (exit non-zero if any fails)" }],
    examples: ['adops auth status', 'adops auth status --json', 'adops auth status --all'],
    load: () => import('./status.js'),
  }),
  command({
    path: ['auth', 'logout'],
    description: "Forget a profile's API key",
    options: [{ flags: '--all-profiles', description: 'forget the keys of every profile' }],
    load: () => import('./logout.js'),
  }),
  command({
    path: ['auth', 'list'],
    description: 'List the stored profiles: base URL, masked key, organization if known, and which is the default',
    examples: ['adops auth list', 'adops auth list --json'],
    load: () => import('./list.js'),
  }),
  command({
    path: ['auth', 'switch'],
    description: 'Make a stored profile the default',
    args: [{ name: 'name', description: 'profile name', required: true }],
    examples: ['adops auth switch staging'],
    load: () => import('./switch.js'),
  }),
];
