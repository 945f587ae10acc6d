// The package version, read from package.json next to dist/ (or src/ in tests)
// with one synchronous read: cheaper than importing anything. The bundles
// (scripts/build.mjs, build-sea.mjs) define __ADOPS_VERSION__ from the same
// package.json at build time, so a run of theirs reads no file for it (#37).
import { readFileSync } from 'node:fs';

declare const __ADOPS_VERSION__: string | undefined;

let cached: string | undefined;

export function packageVersion(): string {
  cached ??=
    typeof __ADOPS_VERSION__ === 'string'
      ? __ADOPS_VERSION__
      : (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  return cached;
}

export function userAgent(version: string): string {
  return `adops/${version} (node ${process.versions.node}; ${process.platform})`;
}
