// A fresh sandbox for one side of a bench: the built `adops sandbox serve` in
// its own process (in-memory store, no scheduled ingestion), with --login
// pointing a profile of CONFIG_DIR at it. Resolves {child, url, key, stop}.
// Each side of a comparison gets its own (identical) sandbox, so neither pays
// for what the other left in it.
import { spawn } from 'node:child_process';

/** The first demo key of the sandbox's world (a public fixture, not a secret). */
export const DEMO_KEY = 'acr_demo_acme_full_0001';
export const DEMO_ADVERTISER = 'acc_acme_a_001';

export function startSandboxChild(bin, configDir) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bin, 'sandbox', 'serve', '--port', '0', '--data', ':memory:', '--login', '--ingest-every', '0'], {
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ADOPS_CONFIG_DIR: configDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    let url;
    const ready = () => {
      // --login writes the profile before "Press Ctrl-C" (on stderr): wait for both.
      if (url && /Press Ctrl-C/.test(err)) {
        const stop = () =>
          new Promise((done) => {
            if (child.exitCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
          });
        resolve({ child, url, key: DEMO_KEY, stop });
      }
    };
    child.stdout.on('data', (c) => {
      out += c;
      url ??= /listening on (\S+)/.exec(out)?.[1];
      ready();
    });
    child.stderr.on('data', (c) => {
      err += c;
      ready();
    });
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`sandbox exited ${code}: ${err.slice(-300)}`)));
  });
}
