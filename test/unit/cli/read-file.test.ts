// A file the user named that cannot be read: a sentence naming it, exit 2, with the system's code or the words of
// what failed, never a library's code alone.
import { describe, expect, it } from 'vitest';
import { readProblem, readTextFile } from '../../../src/cli/read-file.js';
import { tempDir } from '../../helpers/temp.js';

const dir = tempDir('adops-read-file-');

describe('readProblem', () => {
  it('names a directory and a missing file in words', () => {
    expect(() => readTextFile(dir, 'changes.csv')).toThrow('changes.csv is a directory, not a file');
    expect(() => readTextFile(`${dir}/none.csv`, 'none.csv')).toThrow('none.csv does not exist');
  });

  it("a system error it has no words for by its code; any other error by its words, not a library's code", () => {
    const library = Object.assign(new Error('Invalid Opening Quote: a quote is found on field 0 at line 1'), { code: 'INVALID_OPENING_QUOTE' });
    const refusal = readProblem('changes.csv', library);
    expect(refusal.message).toBe('changes.csv cannot be read (Invalid Opening Quote: a quote is found on field 0 at line 1)');
    expect(readProblem('changes.csv', 'odd').message).toBe('changes.csv cannot be read (odd)');
    const emfile = Object.assign(new Error('EMFILE: too many open files, open'), { code: 'EMFILE', syscall: 'open' });
    expect(readProblem('changes.csv', emfile).message).toBe('changes.csv cannot be read (EMFILE)');
  });
});
