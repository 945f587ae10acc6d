// zsh's completion system for a test shell, without the system's ~1,700 completion functions for other commands:
// compinit registers every function $fpath holds, reading each file's first line (~1.3 s of CPU and 5-14 s of wall
// per shell here), and a test shell completes only `adops`, whose function our script registers (#37 session 7).
import { tempDir } from './temp.js';

/**
 * One line of zsh that loads compinit from a folder holding only it and its helpers (compaudit, compdump,
 * compinstall, linked from where $fpath has them) and runs it. `base`: zsh's Base functions (_main_complete,
 * _describe, _files …) stay on $fpath too, for a shell whose TAB runs the real completion system; without it the
 * test defines its own recorders of what those are given. Where one folder holds them all, it is that folder.
 */
export function zshCompinit({ base }: { base: boolean }): string {
  const dir = JSON.stringify(tempDir('adops-zsh-fpath-'));
  const findBase = base ? '[[ -f $d/_main_complete ]] && zb=$d; ' : '';
  return `for d in $fpath; do [[ -f $d/compinit ]] && ln -sf $d/comp*(.) ${dir}/; ${findBase}done; fpath=(${base ? '$zb ' : ''}${dir}); autoload -Uz compinit && compinit -u -D`;
}
