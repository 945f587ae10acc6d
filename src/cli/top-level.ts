// The first level of the command tree (groups and top-level commands) as
// plain data, so `adops --help` renders without loading every definition file.
// Groups are defined here; a test checks the commands' lines against the registry.

export interface TopLevelEntry {
  name: string;
  description: string;
  group: boolean;
}

export const TOP_LEVEL: readonly TopLevelEntry[] = [
  { name: 'api', description: 'Send any request to the service with the same auth, retries, errors and output (the escape hatch)', group: false },
  { name: 'assets', description: "The organization's source images and videos", group: true },
  { name: 'auth', description: 'Log in, see who you are, log out', group: true },
  { name: 'brands', description: 'Brands, their advertisers, Personas and Documents', group: true },
  { name: 'commands', description: 'Print the command tree (--json for machines, --markdown for docs/cli.md)', group: false },
  { name: 'completion', description: 'Print a shell completion script (bash, zsh or fish)', group: false },
  { name: 'config', description: 'Settings and profiles', group: true },
  { name: 'demo', description: 'A short tour of real adops commands against a throwaway local sandbox (needs no account)', group: false },
  { name: 'doctor', description: 'Check config, key, reachability, subscription and permissions, and say what to fix', group: false },
  { name: 'mcp', description: 'Serve the contract as MCP tools for agents (stdio, or Streamable HTTP with --http)', group: false },
  { name: 'mutations', description: 'Changes started on advertisers', group: true },
  { name: 'observe', description: 'Read campaigns, ad groups, ads, creatives, asset groups (stored or live) and insights', group: true },
  { name: 'plans', description: 'Campaign Plans and their Line Items', group: true },
  { name: 'sandbox', description: 'A local, stateful sandbox of the service', group: true },
  { name: 'skills', description: 'Skills (ad-ops playbooks) and the Skill Catalog', group: true },
  { name: 'version', description: 'Print the version (as --version); --json adds Node and the platform', group: false },
];
