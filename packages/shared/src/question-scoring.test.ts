import { describe, expect, it } from 'vitest';
import {
  DEFAULT_BLANK_RULES,
  normaliseBlank,
  scoreResponse,
  type BlankRules,
  type MultiplePolicy,
  type QuestionResponse,
  type Scored,
} from './question-scoring.js';

const strict: BlankRules = { ignoreCase: false, ignoreWidth: false, trimSpaces: false, ignoreInnerSpaces: false, anyOrder: false };

describe('scoreResponse: single choice and true/false', () => {
  const single = { type: 'single', answer: ['B'], score: 5 } as const;
  const judge = { type: 'judge', answer: ['F'], score: 2 } as const;

  it.each<[string, QuestionResponse, Scored]>([
    ['the right key', ['B'], { score: 5, correct: true }],
    ['the right key as a bare string', 'B', { score: 5, correct: true }],
    ['a wrong key', ['A'], { score: 0, correct: false }],
    ['no answer', null, { score: 0, correct: false }],
    ['an empty list', [], { score: 0, correct: false }],
    ['an empty string', '', { score: 0, correct: false }],
    ['two keys, the right one among them', ['B', 'C'], { score: 0, correct: false }],
    ['the right key twice', ['B', 'B'], { score: 0, correct: false }],
    ['the key in lower case', ['b'], { score: 0, correct: false }],
  ])('single, %s', (_, response, scored) => {
    expect(scoreResponse(single, response)).toEqual(scored);
  });

  it.each<[string, QuestionResponse, Scored]>([
    ['the right key', ['F'], { score: 2, correct: true }],
    ['the right key as a bare string', 'F', { score: 2, correct: true }],
    ['the other key', ['T'], { score: 0, correct: false }],
    ['no answer', null, { score: 0, correct: false }],
    ['both keys', ['T', 'F'], { score: 0, correct: false }],
    ['something else', ['false'], { score: 0, correct: false }],
  ])('judge, %s', (_, response, scored) => {
    expect(scoreResponse(judge, response)).toEqual(scored);
  });

  it('a key of no answer or of two answers marks nothing right', () => {
    expect(scoreResponse({ type: 'single', answer: [], score: 5 }, [])).toEqual({ score: 0, correct: false });
    expect(scoreResponse({ type: 'single', answer: ['A', 'B'], score: 5 }, ['A'])).toEqual({ score: 0, correct: false });
  });
});

describe('scoreResponse: multiple choice', () => {
  // Key A, B, C of the options A–E; 6 points, so each right pick is worth 2.
  const key = ['A', 'B', 'C'];
  const cases: [string, QuestionResponse, Record<MultiplePolicy, Scored>][] = [
    ['exactly the key', ['A', 'B', 'C'], { all: full(6), proportional: full(6), proportional_minus: full(6) }],
    ['the key in another order', ['C', 'A', 'B'], { all: full(6), proportional: full(6), proportional_minus: full(6) }],
    ['the key with a pick repeated', ['A', 'B', 'C', 'A'], { all: full(6), proportional: full(6), proportional_minus: full(6) }],
    ['a subset (two of three)', ['A', 'C'], { all: part(0), proportional: part(4), proportional_minus: part(4) }],
    ['a subset (one of three)', ['B'], { all: part(0), proportional: part(2), proportional_minus: part(2) }],
    ['a superset (the key and one more)', ['A', 'B', 'C', 'D'], { all: part(0), proportional: part(0), proportional_minus: part(4) }],
    ['two right and one wrong', ['A', 'B', 'E'], { all: part(0), proportional: part(0), proportional_minus: part(2) }],
    ['one right and one wrong', ['A', 'D'], { all: part(0), proportional: part(0), proportional_minus: part(0) }],
    ['one right and two wrong (never below 0)', ['A', 'D', 'E'], { all: part(0), proportional: part(0), proportional_minus: part(0) }],
    ['one wrong pick only', ['D'], { all: part(0), proportional: part(0), proportional_minus: part(0) }],
    ['every option', ['A', 'B', 'C', 'D', 'E'], { all: part(0), proportional: part(0), proportional_minus: part(2) }],
    ['no answer', null, { all: part(0), proportional: part(0), proportional_minus: part(0) }],
    ['an empty list', [], { all: part(0), proportional: part(0), proportional_minus: part(0) }],
    ['one right key as a bare string', 'A', { all: part(0), proportional: part(2), proportional_minus: part(2) }],
  ];

  for (const policy of ['all', 'proportional', 'proportional_minus'] as const) {
    it.each(cases.map(([name, response, expected]) => [name, response, expected[policy]] as const))(`${policy}, %s`, (_, response, scored) => {
      expect(scoreResponse({ type: 'multiple', answer: key, score: 6, policy }, response)).toEqual(scored);
    });
  }

  it.each(['all', 'proportional', 'proportional_minus'] as const)('%s: an empty key marks nothing right, not even no answer', (policy) => {
    for (const response of [null, [], ['A']]) {
      expect(scoreResponse({ type: 'multiple', answer: [], score: 6, policy }, response)).toEqual({ score: 0, correct: false });
    }
  });

  it.each<[MultiplePolicy, string[], number, QuestionResponse, number]>([
    // 1 point over three keys: thirds, rounded to two decimals.
    ['proportional', key, 1, ['A'], 0.33],
    ['proportional', key, 1, ['A', 'B'], 0.67],
    ['proportional_minus', key, 1, ['A', 'B', 'D'], 0.33],
    // 2.01 over two keys: one right pick is worth 1.005, rounded half up (not to 1, as 1.005 × 100 is 100.4999… in floating point).
    ['proportional', ['A', 'B'], 2.01, ['A'], 1.01],
  ])('%s rounds a share to two decimals (key %j of %d, answered %j)', (policy, answer, score, response, earned) => {
    expect(scoreResponse({ type: 'multiple', answer, score, policy }, response)).toEqual({ score: earned, correct: false });
  });
});

describe('scoreResponse: blanks', () => {
  const blank = (answer: string[][], score: number, rules: Partial<BlankRules> = {}) =>
    ({ type: 'blank', answer, score, blankRules: { ...DEFAULT_BLANK_RULES, ...rules } }) as const;

  // 消防“四个能力”之二, and water's formula: 4 points over two blanks.
  const two = blank([['检查消除火灾隐患', '消除火灾隐患'], ['H2O']], 4);

  it.each<[string, QuestionResponse, Scored]>([
    ['both right', ['检查消除火灾隐患', 'H2O'], { score: 4, correct: true, blanks: [true, true] }],
    ['an alternative', ['消除火灾隐患', 'H2O'], { score: 4, correct: true, blanks: [true, true] }],
    ['the first right', ['消除火灾隐患', 'CO2'], { score: 2, correct: false, blanks: [true, false] }],
    ['the second right', ['灭火', 'h2o'], { score: 2, correct: false, blanks: [false, true] }],
    ['in the wrong order', ['H2O', '消除火灾隐患'], { score: 0, correct: false, blanks: [false, false] }],
    ['fewer answers than blanks', ['消除火灾隐患'], { score: 2, correct: false, blanks: [true, false] }],
    ['one answer as a bare string', '消除火灾隐患', { score: 2, correct: false, blanks: [true, false] }],
    ['more answers than blanks (the extra ignored)', ['消除火灾隐患', 'H2O', 'H2O'], { score: 4, correct: true, blanks: [true, true] }],
    ['empty strings', ['', ''], { score: 0, correct: false, blanks: [false, false] }],
    ['an empty first blank', ['', 'H2O'], { score: 2, correct: false, blanks: [false, true] }],
    ['no answer', null, { score: 0, correct: false, blanks: [false, false] }],
    ['full-width letters and digits', ['消除火灾隐患', 'Ｈ２Ｏ'], { score: 4, correct: true, blanks: [true, true] }],
    ['spaces around (ideographic ones too)', ['\u3000消除火灾隐患 ', '  H2O\t'], { score: 4, correct: true, blanks: [true, true] }],
    ['a space inside', ['消除火灾隐患', 'H2 O'], { score: 2, correct: false, blanks: [true, false] }],
  ])('default rules, %s', (_, response, scored) => {
    expect(scoreResponse(two, response)).toEqual(scored);
  });

  it.each<[string, Partial<BlankRules>, string, boolean]>([
    ['case ignored', { ignoreCase: true }, 'ABC', true],
    ['case counts', { ignoreCase: false }, 'ABC', false],
    ['width ignored', { ignoreWidth: true }, 'ａｂｃ', true],
    ['width counts', { ignoreWidth: false }, 'ａｂｃ', false],
    ['width and case ignored', { ignoreWidth: true, ignoreCase: true }, 'ＡＢＣ', true],
    ['width ignored, case counts', { ignoreWidth: true, ignoreCase: false }, 'ＡＢＣ', false],
    ['spaces around trimmed', { trimSpaces: true }, '  abc ', true],
    ['spaces around count', { trimSpaces: false }, ' abc', false],
    ['inner spaces ignored', { ignoreInnerSpaces: true }, 'a b  c', true],
    ['inner spaces ignored trims too', { ignoreInnerSpaces: true, trimSpaces: false }, ' a b c ', true],
    ['inner spaces count', { ignoreInnerSpaces: false, trimSpaces: true }, 'a bc', false],
  ])('one blank `abc`, %s: %j', (_, rules, response, right) => {
    expect(scoreResponse(blank([['abc']], 3, { ...strict, ...rules }), [response]).correct).toBe(right);
  });

  it('compares the accepted answers by the same rules (a full-width, upper-case key)', () => {
    expect(scoreResponse(blank([['ＣＯ２']], 2), ['co2'])).toEqual({ score: 2, correct: true, blanks: [true] });
  });

  it('rounds a share to two decimals', () => {
    const three = blank([['a'], ['b'], ['c']], 1);
    expect(scoreResponse(three, ['a', 'x', 'x']).score).toBe(0.33);
    expect(scoreResponse(three, ['a', 'b', 'x']).score).toBe(0.67);
    expect(scoreResponse(three, ['a', 'b', 'c']).score).toBe(1);
    // 2.01 over two blanks: 1.005 for one, rounded half up (not 1, as 1.005 × 100 is 100.4999… in floating point).
    expect(scoreResponse(blank([['a'], ['b']], 2.01), ['a', 'x']).score).toBe(1.01);
  });

  it('a question of no blanks marks nothing right', () => {
    expect(scoreResponse(blank([], 2), ['a'])).toEqual({ score: 0, correct: false, blanks: [] });
  });

  describe('in any order', () => {
    it('"name two kinds": one kind named twice fills one blank', () => {
      const kinds = ['干粉', '二氧化碳', '水基'];
      const twoKinds = blank([kinds, kinds], 4, { anyOrder: true });
      expect(scoreResponse(twoKinds, ['水基', '干粉'])).toEqual({ score: 4, correct: true, blanks: [true, true] });
      expect(scoreResponse(twoKinds, ['干粉', '干粉'])).toEqual({ score: 2, correct: false, blanks: [true, false] });
      // Twice once normalised: full width and spaces do not make it another answer.
      expect(scoreResponse(twoKinds, ['干粉', ' 干粉\u3000'])).toEqual({ score: 2, correct: false, blanks: [true, false] });
    });

    const elements = blank([['氧气', 'O2'], ['可燃物'], ['温度', '着火点']], 6, { anyOrder: true });

    it.each<[string, QuestionResponse, Scored]>([
      ['in the order of the key', ['氧气', '可燃物', '温度'], { score: 6, correct: true, blanks: [true, true, true] }],
      ['in another order', ['着火点', 'o2', '可燃物'], { score: 6, correct: true, blanks: [true, true, true] }],
      ['one answer twice fills one blank', ['可燃物', '可燃物', '温度'], { score: 4, correct: false, blanks: [false, true, true] }],
      ['two alternatives of one blank fill it once', ['氧气', 'O2', '可燃物'], { score: 4, correct: false, blanks: [true, true, false] }],
      ['fewer answers than blanks', ['温度'], { score: 2, correct: false, blanks: [false, false, true] }],
      ['empty strings', ['', '', ''], { score: 0, correct: false, blanks: [false, false, false] }],
      ['no answer', null, { score: 0, correct: false, blanks: [false, false, false] }],
    ])('%s', (_, response, scored) => {
      expect(scoreResponse(elements, response)).toEqual(scored);
    });

    // The first blank accepts a or b, the second only a: `a, b` must not put `a` in the first
    // blank and leave `b` nowhere.
    it.each<[QuestionResponse, Scored]>([
      [['b', 'a'], { score: 2, correct: true, blanks: [true, true] }],
      [['a', 'b'], { score: 2, correct: true, blanks: [true, true] }],
      // The same answer twice counts once.
      [['a', 'a'], { score: 1, correct: false, blanks: [true, false] }],
      [['b', 'b'], { score: 1, correct: false, blanks: [true, false] }],
      [['a'], { score: 1, correct: false, blanks: [true, false] }],
      [['c', 'a'], { score: 1, correct: false, blanks: [true, false] }],
    ])('[a|b, a] answered %j', (response, scored) => {
      const result = scoreResponse(blank([['a', 'b'], ['a']], 2, { anyOrder: true }), response);
      expect(result.score).toBe(scored.score);
      expect(result.correct).toBe(scored.correct);
      // Which blank a lone `a` fills is the matching's choice; how many it fills is not.
      expect(result.blanks?.filter(Boolean).length).toBe(scored.blanks?.filter(Boolean).length);
    });
  });
});

describe('scoreResponse: short answers', () => {
  it.each<[QuestionResponse]>([['一提、二拔、三握、四压'], [''], [null]])('are left to people (%j)', (response) => {
    expect(scoreResponse({ type: 'short', score: 10 }, response)).toEqual({ score: null, correct: null });
  });
});

describe('normaliseBlank', () => {
  it.each<[string, string, Partial<BlankRules>, string]>([
    ['the default rules', ' ＡＢＣ　１２３ ', {}, 'abc 123'],
    ['full-width punctuation', '（ａ，ｂ）！', { ignoreWidth: true, ignoreCase: false }, '(a,b)!'],
    ['full-width left alone', 'ＡＢＣ１', { ignoreWidth: false, ignoreCase: false }, 'ＡＢＣ１'],
    ['Chinese characters are not full-width forms', '灭火器', { ignoreWidth: true }, '灭火器'],
    ['the ideographic space made a space', 'a\u3000b', { ignoreWidth: true, trimSpaces: false }, 'a b'],
    ['runs of white space are one space', 'a \t\n b', {}, 'a b'],
    ['no trim keeps the spaces around, collapsed', '  a  b  ', { trimSpaces: false }, ' a b '],
    ['trim', '  a  b  ', { trimSpaces: true }, 'a b'],
    ['inner spaces dropped', ' H 2 O ', { ignoreInnerSpaces: true, trimSpaces: false, ignoreCase: false }, 'H2O'],
    ['case kept', 'AbC', { ignoreCase: false }, 'AbC'],
    ['case folded', 'AbC', { ignoreCase: true }, 'abc'],
    ['empty', '', {}, ''],
    ['spaces only', '\u3000 ', {}, ''],
  ])('%s: %j', (_, text, rules, normalised) => {
    expect(normaliseBlank(text, { ...DEFAULT_BLANK_RULES, ...rules })).toBe(normalised);
  });

  it('with every rule off changes nothing but collapsing white space', () => {
    expect(normaliseBlank(' ＡＢ  c ', strict)).toBe(' ＡＢ c ');
  });
});

function full(score: number): Scored {
  return { score, correct: true };
}

function part(score: number): Scored {
  return { score, correct: false };
}
