// Help read in an 80-column terminal or through a pipe: no line longer than 80 but the examples
// (a command line is not broken). Commander stops wrapping a whole page when its widest entry leaves
// under 40 columns for the text, which `api [options] <path-or-method> [path]` did (21 lines of
// `proxyctl --help` ran past 80); main.ts lowers that bound.
import { afterAll, describe, expect, it } from 'vitest';
import { inTerminal, proxyctl, ran, renderScreen, tempHome } from '../helpers/index.js';

const home = tempHome();
afterAll(() => home.cleanup());

const tooLong = (text: string) => text.split('\n').filter((l) => l.length > 80 && !/^ {2}\$ /.test(l));

describe('help fits 80 columns', () => {
  it('proxyctl --help through a pipe (dist/help.txt) and on the full path', async () => {
    for (const env of [{}, { FORCE_COLOR: '0' }]) {
      const r = await ran(proxyctl(['--help'], { home, env }));
      expect(r.code).toBe(0);
      expect(tooLong(r.out)).toEqual([]);
    }
  });

  it('the help of each group and of a few long commands', async () => {
    for (const args of [['units'], ['units', 'create'], ['units', 'extend'], ['api'], ['webhook'], ['sandbox'], ['config', 'set']]) {
      const r = await ran(proxyctl([...args, '--help'], { home }));
      expect(r.code, args.join(' ')).toBe(0);
      expect(tooLong(r.out), args.join(' ')).toEqual([]);
    }
  });

  it('proxyctl --help in a real 80-column terminal: no row continues the one above', async () => {
    const t = inTerminal(home.env, ['--help'], { columns: 80 });
    await t.child;
    const rows = await renderScreen(t.screen(), 80);
    expect(rows.map((r) => r.text).join('\n')).toContain('Help topics:');
    // A row that continues the one above belongs to a line that did not fit: only examples may.
    const overflowing = rows.flatMap((r, i) => {
      if (!r.wrapped) return [];
      let start = i - 1;
      while (start > 0 && rows[start]?.wrapped) start -= 1;
      return /^ {2}\$ /.test(rows[start]?.text ?? '') ? [] : [rows[start]?.text];
    });
    expect(overflowing).toEqual([]);
  });
});
