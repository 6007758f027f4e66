import { describe, expect, it } from 'vitest';
import { DEFAULT_BLANK_RULES } from './question-scoring.js';
import { plainTextOf, questionCreateSchema, questionShapeIssues, questionUpdateSchema, type QuestionCreateBody } from './questions.js';

const options = (...texts: string[]) => texts.map((text, index) => ({ key: 'ABCDEFGHIJ'[index] as 'A', text }));

const valid: Record<string, QuestionCreateBody> = {
  single: { type: 'single', stem: '<p>扑救电气火灾首选哪种灭火器？</p>', options: options('水基型', '二氧化碳', '泡沫'), answer: ['B'] },
  multiple: { type: 'multiple', stem: '<p>钓鱼邮件的危险信号有：</p>', options: options('制造紧迫感', '索要密码', '来自同事的周报'), answer: ['A', 'B'], policy: 'proportional' },
  judge: { type: 'judge', stem: '<p>火灾时可以乘坐电梯逃生。</p>', answer: ['F'] },
  blank: { type: 'blank', stem: '<p>燃烧的三个条件：可燃物、____ 和 ____。</p>', answer: [['氧气', '助燃物'], ['温度', '着火点']] },
  short: { type: 'short', stem: '<p>简述灭火器的使用方法。</p>', answer: ['一提、二拔、三握、四压'] },
};

/** The parse's issues as `field: message`, as the API answers them. */
function issuesOf(body: unknown): string[] {
  const parsed = questionCreateSchema.safeParse(body);
  return parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
}

describe('questionCreateSchema', () => {
  it.each(Object.entries(valid))('accepts a valid %s question', (_, body) => {
    expect(issuesOf(body)).toEqual([]);
  });

  it('fills the defaults a type has, and leaves null what it has not', () => {
    const blank = questionCreateSchema.parse(valid.blank);
    expect(blank).toMatchObject({ options: [], blankRules: DEFAULT_BLANK_RULES, policy: null, analysis: '', difficulty: 3, score: 1, tags: [] });
    expect(questionCreateSchema.parse({ ...valid.multiple, policy: undefined })).toMatchObject({ policy: 'all', blankRules: null });
    expect(questionCreateSchema.parse(valid.multiple)).toMatchObject({ policy: 'proportional' });
    expect(questionCreateSchema.parse(valid.single)).toMatchObject({ policy: null, blankRules: null });
    expect(questionCreateSchema.parse(valid.short)).toMatchObject({ options: [], policy: null, blankRules: null });
  });

  it('keeps a policy only for multiple choice, and blank rules only for blanks', () => {
    const rules = { ...DEFAULT_BLANK_RULES, anyOrder: true, ignoreCase: false };
    for (const type of ['single', 'judge', 'blank', 'short'] as const) {
      expect(questionCreateSchema.parse({ ...valid[type], policy: 'proportional_minus' }).policy, type).toBeNull();
    }
    for (const type of ['single', 'multiple', 'judge', 'short'] as const) {
      expect(questionCreateSchema.parse({ ...valid[type], blankRules: rules }).blankRules, type).toBeNull();
    }
    expect(questionCreateSchema.parse({ ...valid.blank, blankRules: rules }).blankRules).toEqual(rules);
  });

  it('drops the options of the types that have none', () => {
    expect(questionCreateSchema.parse({ ...valid.judge, options: options('对', '错') }).options).toEqual([]);
    expect(questionCreateSchema.parse({ ...valid.blank, options: options('a', 'b') }).options).toEqual([]);
  });

  it('deduplicates and trims the tags', () => {
    expect(questionCreateSchema.parse({ ...valid.single, tags: ['灭火器', ' 灭火器 ', '火灾逃生', '灭火器'] }).tags).toEqual(['灭火器', '火灾逃生']);
  });

  it.each<[string, Partial<QuestionCreateBody>, string[]]>([
    ['no stem text', { stem: '<p> &nbsp;</p>' }, ['stem: is required']],
    ['too few options', { options: options('只有一个'), answer: ['A'] }, ['options: a choice question needs 2 to 10 options']],
    ['no options', { options: [], answer: ['A'] }, ['options: a choice question needs 2 to 10 options', 'answer: A is not among the options']],
    ['keys out of order', { options: [{ key: 'B', text: '一' }, { key: 'A', text: '二' }] }, ['options: options are keyed A, B, C… in order']],
    ['a key skipped', { options: [{ key: 'A', text: '一' }, { key: 'C', text: '二' }], answer: ['A'] }, ['options: options are keyed A, B, C… in order']],
    ['an empty option', { options: options('水基型', ' ') }, ['options.1.text: is required']],
    ['an answer not among the options', { answer: ['D'] }, ['answer: D is not among the options']],
    ['no answer', { answer: [] }, ['answer: choose the right option']],
    ['an answer of blank lists', { answer: [['B']] }, ['answer: choose the right option']],
    ['two keys', { answer: ['A', 'B'] }, ['answer: a single-choice question has exactly one right option']],
    ['a key twice', { answer: ['B', 'B'] }, ['answer: names an option twice']],
    ['a score of three decimals', { score: 1.005 }, ['score: has more than two decimals']],
    ['a score of 0', { score: 0 }, ['score: Too small: expected number to be >0']],
    ['a score over 100', { score: 100.5 }, ['score: Too big: expected number to be <=100']],
    ['a difficulty of 6', { difficulty: 6 }, ['difficulty: Too big: expected number to be <=5']],
    ['a difficulty of 2.5', { difficulty: 2.5 }, ['difficulty: Invalid input: expected int, received number']],
    ['an empty tag', { tags: ['灭火器', ' '] }, ['tags.1: is required']],
  ])('single choice: %s', (_, change, issues) => {
    expect(issuesOf({ ...valid.single, ...change })).toEqual(issues);
  });

  it.each<[number]>([[0.01], [2.5], [1.1], [0.3], [99.99], [100]])('accepts the score %d', (score) => {
    expect(questionCreateSchema.parse({ ...valid.single, score }).score).toBe(score);
  });

  it.each<[string, Partial<QuestionCreateBody>, string[]]>([
    ['one key', { answer: ['A'] }, []],
    ['every option', { answer: ['A', 'B', 'C'] }, []],
    ['no key', { answer: [] }, ['answer: choose the right option']],
    ['a key not among the options', { answer: ['A', 'E'] }, ['answer: E is not among the options']],
    ['an unknown policy', { policy: 'half' as 'all' }, ['policy: Invalid option: expected one of "all"|"proportional"|"proportional_minus"']],
    ['eleven options', { options: [...options('1', '2', '3', '4', '5', '6', '7', '8', '9', '10'), { key: 'J', text: '11' }] }, ['options: Too big: expected array to have <=10 items']],
  ])('multiple choice: %s', (_, change, issues) => {
    expect(issuesOf({ ...valid.multiple, ...change })).toEqual(issues);
  });

  it.each<[string, unknown]>([
    ['true', ['true']],
    ['lower case', ['t']],
    ['both', ['T', 'F']],
    ['none', []],
    ['a list', [['T']]],
  ])('judge: refuses the answer %s', (_, answer) => {
    expect(issuesOf({ ...valid.judge, answer })).toEqual(['answer: is T (true) or F (false)']);
  });

  it.each<[string, unknown, string[]]>([
    ['no blank', [], ['answer: list the accepted answers of 1 to 20 blanks']],
    ['option keys', ['A'], ['answer: list the accepted answers of 1 to 20 blanks']],
    ['21 blanks', Array.from({ length: 21 }, () => ['a']), ['answer: list the accepted answers of 1 to 20 blanks']],
    ['a blank accepting nothing', [['氧气'], []], ['answer: each blank accepts 1 to 20 answers of at most 200 characters']],
    ['an empty alternative', [['氧气', ' ']], ['answer: each blank accepts 1 to 20 answers of at most 200 characters']],
    ['21 alternatives', [Array.from({ length: 21 }, (_, index) => String(index))], ['answer: each blank accepts 1 to 20 answers of at most 200 characters']],
    ['a 201-character alternative', [['x'.repeat(201)]], ['answer: each blank accepts 1 to 20 answers of at most 200 characters']],
    ['20 blanks of 20 alternatives', Array.from({ length: 20 }, () => Array.from({ length: 20 }, (_, index) => String(index))), []],
  ])('blank: %s', (_, answer, issues) => {
    expect(issuesOf({ ...valid.blank, answer })).toEqual(issues);
  });

  it.each<[string, unknown, string[]]>([
    ['no reference answer', [], []],
    ['two reference answers', ['一', '二'], ['answer: is at most one reference answer']],
    ['blank lists', [['一']], ['answer: is at most one reference answer']],
  ])('short: %s', (_, answer, issues) => {
    expect(issuesOf({ ...valid.short, answer })).toEqual(issues);
  });

  it('refuses an unknown type and a missing stem by field', () => {
    expect(issuesOf({ ...valid.single, type: 'essay' })).toEqual(['type: Invalid option: expected one of "single"|"multiple"|"judge"|"blank"|"short"']);
    expect(issuesOf({ type: 'judge', answer: ['T'] })).toEqual(['stem: is required']);
  });

  it('accepts an image as the whole stem', () => {
    expect(issuesOf({ ...valid.judge, stem: '<p><img src="/api/questions/images/1"></p>' })).toEqual([]);
  });

  it('applies the same rules to an update, which names the question', () => {
    expect(questionUpdateSchema.safeParse({ ...valid.single, id: 3, answer: ['A', 'B'] }).error?.issues.map((issue) => issue.path.join('.'))).toEqual(['answer']);
    expect(questionUpdateSchema.parse({ ...valid.blank, id: 3 })).toMatchObject({ id: 3, blankRules: DEFAULT_BLANK_RULES, policy: null });
    expect(questionUpdateSchema.safeParse({ ...valid.blank, id: 0 }).success).toBe(false);
  });
});

describe('questionShapeIssues', () => {
  it('names every field at fault at once', () => {
    expect(questionShapeIssues({ type: 'single', stem: '', options: [{ key: 'A' }], answer: ['Z'] })).toEqual([
      { field: 'stem', message: 'is required' },
      { field: 'options', message: 'a choice question needs 2 to 10 options' },
      { field: 'answer', message: 'Z is not among the options' },
    ]);
  });
});

describe('plainTextOf', () => {
  it.each<[string, string]>([
    ['<p>扑救电气火灾</p>', '扑救电气火灾'],
    ['<p>第一段</p><p>第二段</p>', '第一段 第二段'],
    ['一<br>二<br/>三', '一 二 三'],
    ['<ul><li>甲</li><li>乙</li></ul>', '甲 乙'],
    ['<h2>标题</h2>正文', '标题 正文'],
    ['<div>a</div><div>b</div>', 'a b'],
    ['H<sub>2</sub>O 是<strong>水</strong>', 'H2O 是水'],
    ['a &lt; b &amp;&amp; c &gt; d', 'a < b && c > d'],
    ['&quot;引号&quot; 和 &#39;单引号&#39;', '"引号" 和 \'单引号\''],
    ['&amp;lt; stays an entity once decoded', '&lt; stays an entity once decoded'],
    ['a&nbsp;&nbsp;b', 'a b'],
    ['  <p>\n  多余的\t 空白 </p> ', '多余的 空白'],
    ['<img src="/x.png" alt="图">', ''],
    ['', ''],
    ['纯文本', '纯文本'],
  ])('%j → %j', (html, text) => {
    expect(plainTextOf(html)).toBe(text);
  });
});
