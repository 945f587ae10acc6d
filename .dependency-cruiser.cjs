// The floors of the code and the walls between them (docs/architecture.md).
// `npm run lint` runs this in CI; a rule broken is an error, not a warning.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No static import cycle (type-only imports included: a cycle of types is still a tangle).',
      from: {},
      to: { circular: true },
    },
    {
      name: 'contract-imports-nothing-of-ours',
      severity: 'error',
      comment: 'The contract is shared by the client and the sandbox and imports neither.',
      from: { path: '^src/contract/' },
      to: { path: '^src/(?!contract/)' },
    },
    {
      name: 'lower-floors-stay-out-of-the-cli',
      severity: 'error',
      comment: 'Client, config and flows never import cli/ or commands/: the mapping from error to exit code lives in cli/.',
      from: { path: '^src/(client|config|flows)/' },
      to: { path: '^src/(cli|commands|sandbox)/' },
    },
    {
      name: 'state-stays-below-flows',
      severity: 'error',
      comment: 'The one local store (src/state) knows nothing of flows, the CLI, commands or the sandbox: they use it, it serves them.',
      from: { path: '^src/state/' },
      to: { path: '^src/(flows|cli|commands|sandbox)/' },
    },
    {
      name: 'client-stays-below-flows',
      severity: 'error',
      from: { path: '^src/(client|config)/' },
      to: { path: '^src/flows/' },
    },
    {
      name: 'sandbox-inside-stays-out-of-http',
      severity: 'error',
      comment: "The sandbox's inside (models, providers, ingest, store, fixtures) imports nothing from its http/ or routes/.",
      from: { path: '^src/sandbox/(models|providers|ingest|store|fixtures)/' },
      to: { path: '^src/sandbox/(http|routes)/' },
    },
    {
      name: 'sandbox-inside-knows-no-http-framework',
      severity: 'error',
      comment: "The sandbox's inside never sees HTTP: no Hono (it throws ServiceError by code; http/ and the app render it).",
      from: { path: '^src/sandbox/(models|providers|ingest|store|fixtures)/' },
      to: { path: '^(node_modules/)?(hono|@hono)(/|$)' },
    },
    {
      name: 'sandbox-and-cli-apart',
      severity: 'error',
      comment: 'The sandbox never imports the CLI, client or flows.',
      from: { path: '^src/sandbox/' },
      to: { path: '^src/(cli|commands|client|flows|config)/' },
    },
    {
      name: 'cli-reaches-sandbox-through-its-entry',
      severity: 'error',
      comment: 'The CLI starts the sandbox only through src/sandbox/index.ts (lazily, from the sandbox group).',
      from: { path: '^src/(cli|commands|client|flows|config)/' },
      to: { path: '^src/sandbox/(?!index\\.ts$)' },
    },
    {
      name: 'cli-core-does-not-import-commands',
      severity: 'error',
      comment:
        'cli/ is the runner and its parts; it reaches the command groups through the context (the registry it is given). Only the entry, main.ts, takes that registry from the composition root (src/commands/index.ts) and hands it on.',
      from: { path: '^src/cli/', pathNot: '^src/cli/main\\.ts$' },
      to: { path: '^src/commands/' },
    },
    {
      name: 'only-the-client-opens-sockets',
      severity: 'error',
      comment:
        'One transport for every byte (issue 25): on the CLI side only src/client/ opens sockets (API calls, the upload PUT, the proxy tunnel), with its agents, deadline, answer cap and retry policy. The sandbox is the service side and serves its own. Type imports count too: a type from node:http outside the client is a socket API leaking out of it.',
      from: { path: '^src/', pathNot: '^src/(client|sandbox)/' },
      to: { path: '^(node:)?(http|https|http2|net|tls|dgram)$|^(node_modules/)?undici(/|$)' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'] },
    exclude: { path: '^src/contract/generated/' },
  },
};
