// Prompts go through this interface so tests inject answers; the real one
// imports @inquirer/prompts only when a prompt is shown, and draws on stderr.
import type { Readable, Writable } from 'node:stream';
import { UsageError } from './errors.js';

export interface Prompter {
  /** Hidden input (API keys). */
  secret(message: string): Promise<string>;
  confirm(message: string, defaultValue?: boolean): Promise<boolean>;
  text(message: string): Promise<string>;
  /** A searchable choice among `choices` (type to narrow). */
  choose(message: string, choices: readonly string[]): Promise<string>;
}

/** Used when prompts are not allowed: each prompt is a usage error naming the way out. */
export function refusingPrompter(why: string): Prompter {
  const refuse = (message: string): Promise<never> => {
    return Promise.reject(new UsageError(`cannot ask "${message}": ${why}`));
  };
  return { secret: refuse, confirm: refuse, text: refuse, choose: refuse };
}

export function inquirerPrompter(input: Readable, output: Writable, signal: AbortSignal): Prompter {
  const context = { input, output, signal, clearPromptOnDone: false };
  return {
    async secret(message) {
      const { password } = await import('@inquirer/prompts');
      return password({ message, mask: '*' }, context);
    },
    async confirm(message, defaultValue = false) {
      const { confirm } = await import('@inquirer/prompts');
      return confirm({ message, default: defaultValue }, context);
    },
    async text(message) {
      const { input: ask } = await import('@inquirer/prompts');
      return ask({ message }, context);
    },
    async choose(message, choices) {
      const { search } = await import('@inquirer/prompts');
      const source = (term: string | undefined) =>
        Promise.resolve(choices.filter((c) => !term || c.toLowerCase().includes(term.toLowerCase())).map((c) => ({ value: c, name: c })));
      return search({ message, source, pageSize: 12 }, context);
    },
  };
}
