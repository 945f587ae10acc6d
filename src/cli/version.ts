// The package version, read from package.json next to dist/ (or src/ in tests)
// with one synchronous read: cheaper than importing anything.
import { readFileSync } from 'node:fs';

let cached: string | undefined;

export function packageVersion(): string {
  cached ??= (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  return cached;
}

export function userAgent(version: string): string {
  return `adops/${version} (node ${process.versions.node}; ${process.platform})`;
}
