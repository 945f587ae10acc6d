// The suite's file order (vitest.config.ts sequence.sequencer): within each project, the longest files first,
// so the two workers end together instead of one running a long file alone at the end. vitest's own order
// does this only from its cache of the last run's timings (node_modules/.vite); a clean clone, as in CI, has
// none and runs files in glob order, where a 20-40 s file may start last. Timings come from that cache when
// it has them, else from FILE_SECONDS (a whole run's, committed), else the file counts as quick.
//
// Projects stay one after the other, as vitest orders them: a worker that shares one module graph across
// files (isolate: false) is kept only while the next file in the queue is of its project, so interleaving
// projects would start a new worker, and import src/ again, at every switch.
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { FILE_SECONDS } from './file-seconds.js';

export default class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const projects = await super.sort(files);
    const rank = new Map<string, number>();
    projects.forEach((spec) => {
      if (!rank.has(spec.project.name)) rank.set(spec.project.name, rank.size);
    });
    const seconds = (spec: TestSpecification): number => {
      const path = relative(this.ctx.config.root, spec.moduleId);
      const cached = this.ctx.cache.getFileTestResults(`${spec.project.name}:${path}`);
      return cached ? cached.duration / 1000 : (FILE_SECONDS[path] ?? 0);
    };
    return [...projects].sort((a, b) => rank.get(a.project.name)! - rank.get(b.project.name)! || seconds(b) - seconds(a));
  }
}
