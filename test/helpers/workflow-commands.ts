// What GitHub Actions' runner would take for a workflow command in a step's
// log, read as it reads each line (actions/runner ActionCommand.cs): the v2
// form `::name props::data` at the start of the line once leading blanks are
// trimmed, and the v1 form `##[name]data` anywhere in it, for the commands it
// registers.

const REGISTERED = new Set([
  'set-env',
  'set-output',
  'save-state',
  'add-mask',
  'add-path',
  'add-matcher',
  'remove-matcher',
  'debug',
  'warning',
  'error',
  'notice',
  'group',
  'endgroup',
  'echo',
  'stop-commands',
]);

/** The commands the runner would run from `text`, one per line that holds one ("error: the data"). */
export function workflowCommands(text: string): string[] {
  const found: string[] = [];
  for (const line of text.split('\n')) {
    const trimmed = line.trimStart();
    const v2 = trimmed.startsWith('::') ? trimmed.indexOf('::', 2) : -1;
    if (v2 !== -1) {
      const name = trimmed.slice(2, v2).split(' ')[0]!;
      if (REGISTERED.has(name)) {
        found.push(`${name}: ${trimmed.slice(v2 + 2)}`);
        continue;
      }
    }
    const at = line.indexOf('##[');
    const end = at === -1 ? -1 : line.indexOf(']', at);
    if (end !== -1) {
      const name = line.slice(at + 3, end).split(' ')[0]!;
      if (REGISTERED.has(name)) found.push(`${name}: ${line.slice(end + 1)}`);
    }
  }
  return found;
}
