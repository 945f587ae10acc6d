// The description beside a completion candidate (zsh and fish show it): server
// text, so one masked line with no control character or escape sequence, cut
// to a menu line's length.
import { describe, expect, it } from 'vitest';
import { completionDescription } from '../../../src/cli/output/sanitize.js';

describe('completionDescription', () => {
  it('one line: controls, ESC sequences and bidi overrides gone; breaks and tabs a space; blanks collapsed', () => {
    expect(completionDescription('Spring\tSale\n2026')).toBe('Spring Sale 2026');
    expect(completionDescription('\u001b]0;title\u0007Red\u001b[31m  \u202eevil\r\nx')).toBe('Red evil x');
    expect(completionDescription('  a \u2028 b  ')).toBe('a b');
    expect(completionDescription(null)).toBe('');
  });

  it('shell syntax stays text (the scripts never evaluate it); a key is masked', () => {
    expect(completionDescription('$(rm -rf ~) `id`; %F{red}')).toBe('$(rm -rf ~) `id`; %F{red}');
    const masked = completionDescription('key acr_live_secret_0123456789abcdef here');
    expect(masked).not.toContain('acr_live_secret_0123456789abcdef');
  });

  it('cut to 60 characters with an ellipsis', () => {
    const long = 'x'.repeat(100);
    expect(completionDescription(long)).toBe(`${'x'.repeat(59)}…`);
    expect(completionDescription('y'.repeat(60))).toBe('y'.repeat(60));
  });
});
