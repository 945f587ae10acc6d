// The walk's name order without ICU (src/flows/name-order.ts): the same order as localeCompare under an English,
// C or POSIX locale, for every name of printable ASCII; every other case goes to localeCompare itself.
import { spawnSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { defaultLocaleIsRoot, ROOT_ASCII_ORDER, rootAsciiCompare, sortByName } from '../../../src/flows/name-order.js';

const english = new Intl.Collator('en-US');
const printable = Array.from({ length: 0x7f - 0x20 }, (_, i) => String.fromCharCode(0x20 + i));

describe('name order', () => {
  it('the table is printable ASCII in the English collation order', () => {
    expect(ROOT_ASCII_ORDER).toBe([...printable].sort(english.compare).join(''));
  });

  it('compares every pair of ASCII names as the English collation does', () => {
    // Few characters, so names share starts and differ only by case often.
    const name = fc.string({ unit: fc.constantFrom('a', 'A', 'b', 'B', 'z', 'Z', '0', '9', '_', '-', '.', ' ', '(', '~', '$'), maxLength: 6 });
    fc.assert(
      fc.property(name, name, (a, b) => Math.sign(rootAsciiCompare(a, b)) === Math.sign(english.compare(a, b))),
      { numRuns: 5000 },
    );
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(...printable), maxLength: 8 }),
        fc.string({ unit: fc.constantFrom(...printable), maxLength: 8 }),
        (a, b) => Math.sign(rootAsciiCompare(a, b)) === Math.sign(english.compare(a, b)),
      ),
      { numRuns: 5000 },
    );
  });

  it('sorts as localeCompare, with or without the table', () => {
    const ascii = ['b.png', 'B.png', 'a_1.png', 'a-1.png', 'A.png', 'a.png', '10.png', '9.png', 'aa.png', 'Banner 300x250.PNG'];
    const mixed = [...ascii, 'été.png', 'Zoë.png', 'ß.png'];
    for (const names of [ascii, mixed]) {
      const expected = [...names].sort((a, b) => a.localeCompare(b));
      expect(sortByName([...names].reverse(), (n) => n)).toEqual(expected);
    }
  });

  it('takes the table only under an English, C or POSIX locale, not on Windows', () => {
    for (const LANG of [undefined, '', 'C', 'C.UTF-8', 'POSIX', 'en_US.UTF-8', 'en_GB', 'en'])
      expect(defaultLocaleIsRoot({ LANG }, 'linux'), String(LANG)).toBe(true);
    for (const env of [
      { LANG: 'da_DK.UTF-8' },
      { LANG: 'lt_LT' },
      { LC_ALL: 'et_EE.UTF-8', LANG: 'en_US.UTF-8' },
      { LC_MESSAGES: 'cs_CZ' },
      { LC_COLLATE: 'da_DK' },
      { LANG: 'en_US@euro' },
    ])
      expect(defaultLocaleIsRoot(env, 'linux'), JSON.stringify(env)).toBe(false);
    expect(defaultLocaleIsRoot({}, 'win32')).toBe(false);
  });

  it('LANG reaches localeCompare (ICU reads it), and the table declines such a LANG', () => {
    const order = (LANG: string) =>
      spawnSync(process.execPath, ['-e', "console.log(['aa','z','b'].sort((a,b)=>a.localeCompare(b)).join())"], {
        env: { PATH: process.env.PATH, LANG },
        encoding: 'utf8',
      }).stdout.trim();
    expect(order('en_US.UTF-8')).toBe('aa,b,z');
    expect(order('da_DK.UTF-8')).toBe('b,z,aa'); // Danish: aa is å, after z
    expect(defaultLocaleIsRoot({ LANG: 'da_DK.UTF-8' }, 'linux')).toBe(false);
  });
});
