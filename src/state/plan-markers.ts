// A local marker for each `plans apply` in progress, so a run killed between
// creating the plan and adding its last Line Item (kill -9, a power cut) is
// recognised by the next run: the marker names the slug, the run's pid and
// host, when it started and, once the service answered, the plan's createdAt.
// One marker per (service, key fingerprint, slug) under the config dir (the
// caller names the scope with state/fingerprint.ts: a plan of one service or
// organization says nothing about another's); created exclusively, so two runs
// of one plan on one machine cannot both hold it.
// Removed when the run ends cleanly (done, or rolled back).
import { createHash } from 'node:crypto';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { codeOf } from '../client/errors.js';
import { isRecord, printableJson } from '../client/json.js';
import { ensureDir, writeDurably } from './durable-write.js';
import { asStateError, guardWrite } from './errors.js';
import { scopeId, type ServiceScope } from './fingerprint.js';

const WHAT = 'a plan-apply marker';

export interface PlanMarker {
  v: 1;
  slug: string;
  pid: number;
  host: string;
  startedAt: number;
  /** The created plan's createdAt, once the service answered the create. */
  planCreatedAt?: number;
}

/** What a claim found: nothing, or the marker of an earlier run that is no longer running. */
export type Claim = { leftover?: PlanMarker };

/** Another run holds the marker: alive on this host, or on another host (cannot tell). */
export class MarkerHeld extends Error {
  override readonly name = 'MarkerHeld';
  constructor(
    readonly held: PlanMarker,
    readonly path: string,
  ) {
    super(`plan ${held.slug} is being applied by another adops (pid ${held.pid} on ${held.host}, since ${new Date(held.startedAt).toISOString()})`);
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return codeOf(err) === 'EPERM';
  }
}

export class PlanApplyMarkers {
  private readonly dir: string;

  private readonly scope: string;

  /** `scope`: the service and key in use (a string only in tests of the markers alone). */
  constructor(
    configDir: string,
    scope: ServiceScope | string,
    private readonly now: () => number = Date.now,
  ) {
    this.dir = join(configDir, 'plan-apply');
    this.scope = typeof scope === 'string' ? scope : scopeId(scope);
  }

  /** The marker file of a slug (the scope keeps two services or profiles apart). */
  pathOf(slug: string): string {
    return join(this.dir, `${createHash('sha256').update(`${this.scope}\n${slug}`).digest('hex').slice(0, 32)}.json`);
  }

  private read(path: string): PlanMarker | undefined {
    try {
      const m: unknown = JSON.parse(readFileSync(path, 'utf8'));
      if (!isRecord(m) || m.v !== 1 || typeof m.pid !== 'number') return undefined;
      return {
        v: 1,
        pid: m.pid,
        slug: String(m.slug),
        host: String(m.host),
        startedAt: Number(m.startedAt),
        ...(typeof m.planCreatedAt === 'number' ? { planCreatedAt: m.planCreatedAt } : {}),
      };
    } catch {
      return undefined;
    }
  }

  /** Take the marker of `slug` for this process; a dead run's marker is taken over and returned. */
  claim(slug: string): Claim {
    ensureDir(this.dir, WHAT);
    const path = this.pathOf(slug);
    const mine: PlanMarker = { v: 1, slug, pid: process.pid, host: hostname(), startedAt: this.now() };
    try {
      writeFileSync(path, printableJson(mine), { flag: 'wx', mode: 0o600 });
      return {};
    } catch (err) {
      if (codeOf(err) !== 'EEXIST') {
        rmSync(path, { force: true }); // a full disk may have left it empty: no half-written marker
        throw asStateError(err, path, WHAT);
      }
    }
    const held = this.read(path);
    if (held && (held.host !== mine.host || alive(held.pid)) && held.pid !== process.pid) throw new MarkerHeld(held, path);
    writeDurably(path, printableJson(mine), WHAT);
    return held ? { leftover: held } : {};
  }

  /** Record what the create answered (proof for a later run that the plan is this run's). */
  created(slug: string, planCreatedAt: number): void {
    const path = this.pathOf(slug);
    const m = this.read(path);
    if (m?.pid === process.pid) writeDurably(path, printableJson({ ...m, planCreatedAt }), WHAT);
  }

  release(slug: string): void {
    const path = this.pathOf(slug);
    if (this.read(path)?.pid === process.pid) guardWrite(path, WHAT, () => rmSync(path, { force: true }));
  }
}
