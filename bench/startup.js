#!/usr/bin/env node
// CLI start-up benchmark: `node -e 0`, `adops --version`, `adops --help` and a
// stored read (`adops observe campaigns --limit 1`) against a local sandbox the
// bench starts itself, plus the floor of that read: the same one page fetched
// by a bare `node -e` script with node:http (what any client on node pays).
// N runs each, interleaved so machine noise hits all alike; prints medians and
// ratios to bare node. The environment is clean: no NODE_OPTIONS, no
// NODE_EXTRA_CA_CERTS (which alone adds ~100 ms to every node start).
// `--write` puts the figures in docs/performance.md between the "cli-startup" markers.
// Usage: node bench/startup.js [--runs N] [--write]   (needs `npm run build`)
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
// What `adops` runs once installed (package.json "bin").
const BIN = join(ROOT, JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).bin.adops);
const args = process.argv.slice(2);
const RUNS = Number(args[args.indexOf('--runs') + 1]) || 15;
const WRITE = args.includes('--write');
const TARGETS = { '--version': 1.3, '--help': 1.3, 'stored read': 2 };

if (!existsSync(join(ROOT, 'dist', 'bundle', 'main.js'))) {
  console.error('build first: npm run build');
  process.exit(2);
}

const config = mkdtempSync(join(tmpdir(), 'adops-bench-'));
const env = { PATH: process.env.PATH, HOME: process.env.HOME, ADOPS_CONFIG_DIR: config };

function startSandbox() {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, 'sandbox', 'serve', '--port', '0', '--data', ':memory:', '--login'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (c) => {
      out += c;
      if (/listening on /.test(out)) resolve(child);
    });
    child.on('exit', (code) => reject(new Error(`sandbox exited ${code}`)));
  });
}

function time(argv) {
  const started = process.hrtime.bigint();
  const r = spawnSync(process.execPath, argv, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  return { ms: Number(process.hrtime.bigint() - started) / 1e6, status: r.status, stderr: String(r.stderr) };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const sandbox = await startSandbox();
try {
  let read = ['observe', 'campaigns', '--limit', '1'];
  let readNote = '';
  const probe = time([BIN, ...read]);
  if (probe.status !== 0) {
    readNote = `(observe campaigns failed here: ${probe.stderr.split('\n')[0]}; measured \`mutations list --limit 1\` instead)`;
    read = ['mutations', 'list', '--limit', '1'];
  }
  const { baseUrl, apiKey } = JSON.parse(readFileSync(join(config, 'config.json'), 'utf8')).profiles.sandbox;
  // The key goes through the environment, never argv.
  const floor = `require('node:http').get(process.env.U + '/observe/campaigns?limit=1', { headers: { authorization: 'Bearer ' + process.env.K } }, (r) => { r.resume(); r.on('end', () => process.exit(0)); })`;
  env.U = baseUrl;
  env.K = apiKey;
  const cases = {
    'node -e 0': ['-e', '0'],
    'floor': ['-e', floor],
    '--version': [BIN, '--version'],
    '--help': [BIN, '--help'],
    'stored read': [BIN, ...read],
  };
  const samples = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
  for (const argv of Object.values(cases)) time(argv); // warm the file cache
  for (let i = 0; i < RUNS; i++) {
    for (const [name, argv] of Object.entries(cases)) {
      const r = time(argv);
      if (r.status !== 0) throw new Error(`${name} failed: ${r.stderr}`);
      samples[name].push(r.ms);
    }
  }
  const base = median(samples['node -e 0']);
  const rows = Object.entries(samples).map(([name, xs]) => {
    const m = median(xs);
    const ratio = m / base;
    const target = TARGETS[name];
    return { name, median: m, min: Math.min(...xs), ratio, target, ok: target === undefined || ratio <= target };
  });
  const label = (name) =>
    name === 'node -e 0' ? '`node -e 0`' : name === 'floor' ? 'floor: one page with bare node:http (`node -e`)' : name === 'stored read' ? `\`adops ${read.join(' ')}\`` : `\`adops ${name}\``;
  const lines = [
    `Measured ${new Date().toISOString().slice(0, 10)} on ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, node ${process.versions.node}, ${RUNS} runs each (interleaved), medians:`,
    '',
    '| Command | Median ms | Min ms | × `node -e 0` (medians) | Target | Met |',
    '| --- | ---: | ---: | ---: | ---: | :-: |',
    ...rows.map((r) => `| ${label(r.name)} | ${r.median.toFixed(1)} | ${r.min.toFixed(1)} | ${r.ratio.toFixed(2)} | ${r.target ? `≤ ${r.target}` : ''} | ${r.target ? (r.ok ? 'yes' : 'NO') : ''} |`),
    ...(readNote ? ['', readNote] : []),
  ];
  console.log(lines.join('\n'));
  if (WRITE) {
    const file = join(ROOT, 'docs', 'performance.md');
    const begin = '<!-- cli-startup:begin (written by `node bench/startup.js --write`) -->';
    const end = '<!-- cli-startup:end -->';
    let doc = existsSync(file) ? readFileSync(file, 'utf8') : '# Performance\n';
    const section = `${begin}\n${lines.join('\n')}\n${end}`;
    if (doc.includes(begin)) doc = doc.replace(new RegExp(`${begin.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[\\s\\S]*?${end}`), section);
    else doc += `\n## CLI start-up\n\nHow fast \`adops\` starts compared with bare node.\n\n${section}\n`;
    writeFileSync(file, doc);
    console.log(`\nwritten to ${file}`);
  }
  if (rows.some((r) => !r.ok)) process.exitCode = 1;
} finally {
  sandbox.kill('SIGTERM');
}
