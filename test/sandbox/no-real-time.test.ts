// The rule of this folder: no test waits on real time to see a state change.
// Lifecycles move on the sandbox clock (test/sandbox/clock.ts) and are taken
// on access; uploads and held requests signal events (files.busy/idle,
// held.arrived). A sleep, a timer or a polling loop here fails this test.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('.', import.meta.url));
const SELF = fileURLToPath(import.meta.url);

/** What waiting on real time looks like in source. */
export const REAL_TIME_WAITS: ReadonlyArray<[string, RegExp]> = [
  ['setTimeout', /\bsetTimeout\s*\(/],
  ['setInterval', /\bsetInterval\s*\(/],
  ['timers/promises', /node:timers\/promises|from 'timers\/promises'/],
  ['a sleep helper', /\bsleep\s*\(/],
  ['a polling helper', /\b(waitFor\w*|eventually|pollUntil)\s*\(/],
  ['fake timers', /useFakeTimers|advanceTimersByTime/],
];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sources(path);
    return /\.(ts|js|mjs)$/.test(e.name) && path !== SELF ? [path] : [];
  });
}

export function realTimeWaits(text: string): string[] {
  return text
    .split('\n')
    .flatMap((line, i) => (line.trim().startsWith('//') ? [] : REAL_TIME_WAITS.filter(([, re]) => re.test(line)).map(([what]) => `line ${i + 1}: ${what}`)));
}

describe('no test in test/sandbox waits on real time', () => {
  it('the rule catches each kind of wait (it can fail)', () => {
    expect(realTimeWaits('await new Promise((r) => setTimeout(r, 50));')).toEqual(['line 1: setTimeout']);
    expect(realTimeWaits('x;\nawait sleep(10);')).toEqual(['line 2: a sleep helper']);
    expect(realTimeWaits('await waitForState(sb, id);')).toEqual(['line 1: a polling helper']);
    expect(realTimeWaits("import { setTimeout } from 'node:timers/promises';")).toEqual(['line 1: timers/promises']);
    expect(realTimeWaits('// setTimeout( in a comment is fine')).toEqual([]);
  });

  it.each(sources(ROOT).map((p) => [relative(ROOT, p), p]))('%s', (_name, path) => {
    expect(realTimeWaits(readFileSync(path, 'utf8'))).toEqual([]);
  });
});
