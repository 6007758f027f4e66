import { importResultSchema, type ImportResult } from '@cloud-classroom/shared/applicants';
import { pageOf } from '@cloud-classroom/shared/http';
import { questionSchema, type Question, type QuestionCreateBody } from '@cloud-classroom/shared/questions';
import ExcelJS from 'exceljs';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { db, expectRefusal } from '../../test/course-fixtures.js';
import { createQuestion } from '../../test/question-fixtures.js';
import { buildTestApp, call, loginAs } from '../../test/test-app.js';

/** The template's first column, and what it holds in an example row. */
const EXAMPLE_HEADER = '示例';
const EXAMPLE_MARK = '示例（不导入）';
const SHEET_NAMES = ['单选题', '多选题', '判断题', '填空题', '简答题'];
const OPTIONS = ['选项A', '选项B', '选项C', '选项D', '选项E', '选项F', '选项G', '选项H', '选项I', '选项J'];
const HEADERS: Record<string, string[]> = {
  单选题: ['题干', ...OPTIONS, '答案', '解析', '难度', '知识点', '分值'],
  多选题: ['题干', ...OPTIONS, '答案', '解析', '难度', '知识点', '分值', '评分方式'],
  判断题: ['题干', '答案', '解析', '难度', '知识点', '分值'],
  填空题: ['题干', '答案', '解析', '难度', '知识点', '分值', '忽略大小写', '忽略全半角', '忽略首尾空格', '忽略所有空格', '不分顺序'],
  简答题: ['题干', '参考答案', '解析', '难度', '知识点', '分值'],
};

async function multipart(content: Buffer): Promise<Pick<InjectOptions, 'headers' | 'payload'>> {
  const form = new FormData();
  form.append('file', new Blob([content]), 'questions.xlsx');
  const encoded = new Response(form);
  return { headers: { 'content-type': encoded.headers.get('content-type') ?? '' }, payload: Buffer.from(await encoded.arrayBuffer()) };
}

/** A workbook of these sheets, each its header row (row 1) and its rows, as a person might make one without the template. */
async function workbook(sheets: Record<string, unknown[][]>): Promise<Buffer> {
  const book = new ExcelJS.Workbook();
  for (const [name, rows] of Object.entries(sheets)) {
    const sheet = book.addWorksheet(name);
    for (const row of rows) sheet.addRow(row);
  }
  return Buffer.from(await book.xlsx.writeBuffer());
}

async function load(content: Buffer): Promise<ExcelJS.Workbook> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(content as unknown as ArrayBuffer);
  return book;
}

/** A row of the sheet from cells by header. */
function rowOf(sheet: string, cells: Record<string, unknown>): unknown[] {
  return (HEADERS[sheet] as string[]).map((header) => cells[header] ?? null);
}

describe('the question workbook', () => {
  let app: FastifyInstance;
  let teacher: string;
  beforeAll(async () => {
    app = await buildTestApp();
    teacher = await loginAs(app, 'teacher');
  });
  afterAll(async () => {
    await app.close();
  });
  beforeEach(async () => {
    await db(app).deleteFrom('edu_question_tag').execute();
    await db(app).deleteFrom('edu_question').execute();
  });

  const send = async (query: string, content: Buffer) => {
    const { headers, payload } = await multipart(content);
    return app.inject({ method: 'POST', url: `/api/questions/import${query}`, headers: { ...headers, authorization: teacher }, payload });
  };
  const imported = async (query: string, content: Buffer): Promise<ImportResult> => {
    const response = await send(query, content);
    expect(response.statusCode, response.body).toBe(200);
    return importResultSchema.parse(response.json());
  };
  const download = async (url: string) => {
    const response = await call(app, 'GET', url, teacher);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toContain('spreadsheetml');
    return response.rawPayload;
  };
  const bank = async (): Promise<Question[]> => {
    const response = await call(app, 'GET', '/api/questions?sort=id,asc&size=1000', teacher);
    expect(response.statusCode, response.body).toBe(200);
    return pageOf(questionSchema).parse(response.json()).content;
  };
  const count = async () => (await db(app).selectFrom('edu_question').select('id').execute()).length;

  describe('the template', () => {
    it('has a sheet per type, each with its rules above the Chinese headers and an example marked as one, which never imports', async () => {
      const template = await download('/api/questions/template');
      const book = await load(template);
      expect(book.worksheets.map((sheet) => sheet.name)).toEqual(SHEET_NAMES);
      for (const sheet of book.worksheets) {
        expect(String(sheet.getCell(1, 1).value)).toMatch(new RegExp(`^${sheet.name}填写说明`));
        expect((sheet.getRow(2).values as unknown[]).slice(1)).toEqual([EXAMPLE_HEADER, ...(HEADERS[sheet.name] as string[])]);
        expect(sheet.getCell(3, 1).value).toBe(EXAMPLE_MARK);
        expect(sheet.actualRowCount).toBe(3);
      }
      expect(String(book.getWorksheet('填空题')?.getCell(1, 1).value)).toContain('||');
      expect(String(book.getWorksheet('多选题')?.getCell(1, 1).value)).toContain('proportional_minus');

      const examples = SHEET_NAMES.map((sheet) => ({ sheet, row: 3 }));
      expect(await imported('', template)).toEqual({ total: 0, valid: 0, created: 0, errors: [], rows: [], examples });
      expect(await imported('?dryRun=false', template)).toEqual({ total: 0, valid: 0, created: 0, errors: [], rows: [], examples });
      expect(await count()).toBe(0);
    });

    it('imports only the rows filled in on one sheet of the template, the dry run listing them and the examples it skips', async () => {
      const book = await load(await download('/api/questions/template'));
      const single = book.getWorksheet('单选题') as ExcelJS.Worksheet;
      single.addRow([null, ...rowOf('单选题', { 题干: '灭火器压力表指针在绿区表示？', 选项A: '压力正常', 选项B: '压力不足', 答案: 'A' })]);
      single.addRow([null, ...rowOf('单选题', { 题干: '<p>安全出口的标志是什么颜色？<b>请选择</b></p>', 选项A: '绿色', 选项B: '红色', 答案: 'A' })]);
      const file = Buffer.from(await book.xlsx.writeBuffer());
      const planned = {
        total: 2,
        valid: 2,
        errors: [],
        rows: [
          { sheet: '单选题', row: 4, type: 'single', text: '灭火器压力表指针在绿区表示？' },
          { sheet: '单选题', row: 5, type: 'single', text: '安全出口的标志是什么颜色？请选择' },
        ],
        examples: SHEET_NAMES.map((sheet) => ({ sheet, row: 3 })),
      };
      expect(await imported('', file)).toEqual({ ...planned, created: 0 });
      expect(await count()).toBe(0);
      expect(await imported('?dryRun=false', file)).toEqual({ ...planned, created: 2 });
      expect((await bank()).map((question) => question.stemText)).toEqual(['灭火器压力表指针在绿区表示？', '安全出口的标志是什么颜色？请选择']);
    });

    it('skips a row marked as an example wherever it is, and reads a sheet without the example column as it is', async () => {
      const result = await imported(
        '',
        await workbook({
          判断题: [
            [EXAMPLE_HEADER, ...(HEADERS['判断题'] as string[])],
            [EXAMPLE_MARK, '电器着火时可以直接用水扑救。', '错误'],
            [null, '烟雾向上飘。', '正确'],
            ['example', '这一行也是示例。', '正确'],
          ],
          简答题: [HEADERS['简答题'] as string[], ['何为三懂三会？']],
        }),
      );
      expect(result).toEqual({
        total: 2,
        valid: 2,
        created: 0,
        errors: [],
        rows: [
          { sheet: '判断题', row: 3, type: 'judge', text: '烟雾向上飘。' },
          { sheet: '简答题', row: 2, type: 'short', text: '何为三懂三会？' },
        ],
        examples: [
          { sheet: '判断题', row: 2 },
          { sheet: '判断题', row: 4 },
        ],
      });
    });

    it('offers one type’s sheet alone', async () => {
      const book = await load(await download('/api/questions/template?type=judge'));
      expect(book.worksheets.map((sheet) => sheet.name)).toEqual(['判断题']);
      expectRefusal(await call(app, 'GET', '/api/questions/template?type=essay', teacher), 400, 'type');
    });

    it('takes the template filled in by hand, as people write', async () => {
      const book = await load(await download('/api/questions/template'));
      const add = (name: string, cells: Record<string, unknown>) => book.getWorksheet(name)?.addRow([null, ...rowOf(name, cells)]);
      add('单选题', { 题干: '  灭火器压力表指针在绿区表示？ ', 选项A: '压力正常', 选项B: '压力不足', 答案: ' b ', 难度: '2', 知识点: '器材， 灭火器;', 分值: '1.5' });
      add('多选题', { 题干: '火场逃生正确的做法有？', 选项A: '低姿前进', 选项B: '乘坐电梯', 选项C: '捂住口鼻', 答案: 'a, c', 知识点: '逃生、应急', 评分方式: 'proportional_minus' });
      add('多选题', { 题干: '报警时应说明？', 选项A: '地址', 选项B: '火势', 选项C: '姓名', 答案: 'A、B，C', 评分方式: '全对得分' });
      add('判断题', { 题干: '可以用湿毛巾捂住口鼻。', 答案: '对' });
      add('判断题', { 题干: '着火时应该乘电梯。', 答案: '×', 难度: 5 });
      add('判断题', { 题干: '烟雾向上飘。', 答案: 'true' });
      add('填空题', { 题干: '灭火器的简称是 ____。', 答案: ' ABC | abc干粉 ', 忽略大小写: '否', 不分顺序: 'Y' });
      add('简答题', { 题干: '何为三懂三会？', 解析: '<p>见<b>手册</b></p><script>x</script>' });
      const result = await imported('?dryRun=false', Buffer.from(await book.xlsx.writeBuffer()));
      expect(result).toMatchObject({ total: 8, valid: 8, created: 8, errors: [] });
      const questions = await bank();
      expect(questions.find((question) => question.stemText === '灭火器压力表指针在绿区表示？')).toMatchObject({
        stem: '<p>灭火器压力表指针在绿区表示？</p>',
        answer: ['B'],
        difficulty: 2,
        tags: ['器材', '灭火器'],
        score: 1.5,
      });
      expect(questions.find((question) => question.stemText === '火场逃生正确的做法有？')).toMatchObject({ answer: ['A', 'C'], tags: ['逃生', '应急'], policy: 'proportional_minus', difficulty: 3, score: 1 });
      expect(questions.find((question) => question.stemText === '报警时应说明？')).toMatchObject({ answer: ['A', 'B', 'C'], policy: 'all' });
      expect(questions.filter((question) => question.type === 'judge' && question.createBy === 'teacher').map((question) => question.answer)).toEqual([['T'], ['F'], ['T']]);
      expect(questions.find((question) => question.stemText === '灭火器的简称是 ____。')).toMatchObject({
        answer: [['ABC', 'abc干粉']],
        blankRules: { ignoreCase: false, ignoreWidth: true, trimSpaces: true, ignoreInnerSpaces: false, anyOrder: true },
      });
      expect(questions.find((question) => question.stemText === '何为三懂三会？')).toMatchObject({ answer: [], analysis: '<p>见<b>手册</b></p>' });
    });
  });

  describe('checking a file', () => {
    /**
     * 200 questions, 40 of each type, in the template's format (the rules row, the headers in
     * row 2), the multiple-choice sheet with English headers and an eleventh option column; 7 rows
     * planted with one problem each.
     */
    async function twoHundred(withBadRows: boolean): Promise<{ file: Buffer; bad: { row: number; column: string }[] }> {
      const book = new ExcelJS.Workbook();
      const bad: { row: number; column: string }[] = [];
      const sheets: Record<string, unknown[][]> = {};
      const english: Record<string, string> = { 题干: 'Stem', 答案: 'answer', 解析: 'analysis', 难度: 'difficulty', 知识点: 'tags', 分值: 'score', 评分方式: 'policy' };
      for (const name of SHEET_NAMES) {
        const rows: unknown[][] = [];
        for (let index = 0; index < 40; index += 1) {
          const stem = `${name}第${index + 1}题：${'甲乙丙丁'.repeat(index % 3)}？`;
          const cells: Record<string, unknown> = { 题干: stem, 解析: `解析${index}`, 难度: (index % 5) + 1, 知识点: `点${index % 4}，共同`, 分值: (index % 3) + 1 };
          if (name === '单选题' || name === '多选题') Object.assign(cells, { 选项A: '甲', 选项B: '乙', 选项C: '丙', 选项D: '丁', 答案: name === '单选题' ? 'C' : 'AD' });
          if (name === '判断题') cells['答案'] = index % 2 === 0 ? '正确' : '错误';
          if (name === '填空题') cells['答案'] = `答${index}|答案${index}||第二空`;
          if (name === '简答题') cells['参考答案'] = `要点${index}`;
          rows.push(rowOf(name, cells));
        }
        sheets[name] = rows;
      }
      // Excel's numbers: the rules row is 1, the headers 2, the first question 3.
      const plant = (name: string, index: number, column: string, change: (row: unknown[]) => void) => {
        if (!withBadRows) {
          (sheets[name] as unknown[][])[index] = [];
          return;
        }
        change((sheets[name] as unknown[][])[index] as unknown[]);
        bad.push({ row: index + 3, column });
      };
      const at = (name: string, header: string) => (HEADERS[name] as string[]).indexOf(header);
      plant('单选题', 4, '题干', (row) => (row[at('单选题', '题干')] = ''));
      plant('单选题', 17, '答案', (row) => (row[at('单选题', '答案')] = 'E'));
      plant('多选题', 9, 'score', (row) => (row[at('多选题', '分值')] = '两分'));
      plant('多选题', 30, 'optionK', (row) => (row[(HEADERS['多选题'] as string[]).length] = '戊'));
      plant('判断题', 12, '难度', (row) => (row[at('判断题', '难度')] = 7));
      plant('填空题', 25, '题干', (row) => (row[at('填空题', '题干')] = '填空题第2题：甲乙丙丁？'));
      // The bank has this one already (made below).
      plant('简答题', 39, '题干', (row) => (row[at('简答题', '题干')] = '已在题库中的简答题'));
      for (const name of SHEET_NAMES) {
        const sheet = book.addWorksheet(name);
        const headers = (HEADERS[name] as string[]).map((header) => (name === '多选题' ? (english[header] ?? header.replace('选项', 'option')) : header));
        sheet.addRow(['说明：这一行导入时跳过']);
        sheet.addRow(name === '多选题' ? [...headers, 'optionK'] : headers);
        for (const row of sheets[name] as unknown[][]) sheet.addRow(row);
      }
      return { file: Buffer.from(await book.xlsx.writeBuffer()), bad };
    }

    it('reports exactly the 7 bad rows of 200, writes nothing while any is bad, and adds the 193 good ones', async () => {
      await createQuestion(app, teacher, { type: 'short', stem: '<p>已在题库中的简答题</p>', answer: [] });
      const { file, bad } = await twoHundred(true);
      const expected = { total: 200, valid: 193, created: 0 };
      const dry = await imported('?dryRun=true', file);
      expect(dry).toMatchObject(expected);
      expect(dry.errors.map(({ row, column }) => ({ row, column }))).toEqual(bad);
      expect(dry.errors.map(({ message }) => message)).toEqual([
        '[单选题] is required',
        '[单选题] E is not among the options',
        '[多选题] is not a number',
        '[多选题] too many options: at most 10 (A–J)',
        '[判断题] expected a whole number from 1 to 5',
        '[填空题] repeats the question in row 4',
        expect.stringMatching(/^\[简答题\] the bank has this question already \(id \d+\)$/),
      ]);
      expect(await count()).toBe(1);
      expect(await imported('?dryRun=false', file)).toEqual(dry);
      expect(await count()).toBe(1);

      const { file: good } = await twoHundred(false);
      expect(await imported('?dryRun=true', good)).toMatchObject({ total: 193, valid: 193, created: 0, errors: [] });
      expect(await count()).toBe(1);
      expect(await imported('?dryRun=false', good)).toMatchObject({ total: 193, valid: 193, created: 193, errors: [] });
      expect(await count()).toBe(194);
      const multiple = (await bank()).find((question) => question.stemText === '多选题第1题：？');
      expect(multiple).toMatchObject({ answer: ['A', 'D'], options: [{ key: 'A', text: '甲' }, { key: 'B', text: '乙' }, { key: 'C', text: '丙' }, { key: 'D', text: '丁' }], tags: ['点0', '共同'], policy: 'all' });
    });

    it('names the cell of every other kind of problem', async () => {
      const file = await workbook({
        单选题: [
          HEADERS['单选题'] as string[],
          rowOf('单选题', { 题干: 'Gap', 选项A: 'a', 选项C: 'c', 答案: 'A' }),
          rowOf('单选题', { 题干: 'One option', 选项A: 'a', 答案: 'A' }),
          rowOf('单选题', { 题干: 'Two keys', 选项A: 'a', 选项B: 'b', 答案: 'AB' }),
          rowOf('单选题', { 题干: 'Not letters', 选项A: 'a', 选项B: 'b', 答案: '1' }),
          rowOf('单选题', { 题干: 'No answer', 选项A: 'a', 选项B: 'b' }),
          rowOf('单选题', { 题干: 'Too many tags', 选项A: 'a', 选项B: 'b', 答案: 'A', 知识点: 'a,b,c,d,e,f,g,h,i,j,k' }),
          rowOf('单选题', { 题干: 'Score too high', 选项A: 'a', 选项B: 'b', 答案: 'A', 分值: 101 }),
          rowOf('单选题', { 题干: '<script>x</script>', 选项A: 'a', 选项B: 'b', 答案: 'A' }),
        ],
        多选题: [HEADERS['多选题'] as string[], rowOf('多选题', { 题干: 'Policy', 选项A: 'a', 选项B: 'b', 答案: 'A', 评分方式: 'some' })],
        判断题: [[...(HEADERS['判断题'] as string[]), '备注'], rowOf('判断题', { 题干: 'Maybe', 答案: '也许' })],
        填空题: [HEADERS['填空题'] as string[], rowOf('填空题', { 题干: 'Rule', 答案: 'x||', 忽略大小写: 'maybe' })],
        简答题: [['解析', '难度'], ['x', 1]],
        Sheet1: [['anything']],
        Sheet2: [],
      });
      const result = await imported('?dryRun=false', file);
      expect(result).toMatchObject({ total: 11, valid: 0, created: 0 });
      expect(result.errors).toEqual([
        { row: 2, column: '选项B', message: '[单选题] options are keyed A, B, C… in order' },
        { row: 3, column: '选项B', message: '[单选题] a choice question needs 2 to 10 options' },
        { row: 4, column: '答案', message: '[单选题] a single-choice question has exactly one right option' },
        { row: 5, column: '答案', message: '[单选题] expected option letters, such as A, AC or A,C' },
        { row: 6, column: '答案', message: '[单选题] is required' },
        { row: 7, column: '知识点', message: '[单选题] Too big: expected array to have <=10 items' },
        { row: 8, column: '分值', message: '[单选题] Too big: expected number to be <=100' },
        { row: 9, column: '题干', message: '[单选题] is required' },
        { row: 2, column: '评分方式', message: '[多选题] expected 全对得分, 按比例得分 or 错选扣分 (all, proportional, proportional_minus)' },
        { row: 1, column: '备注', message: '[判断题] is not a column of this sheet' },
        { row: 2, column: '答案', message: '[判断题] expected 正确 or 错误 (T or F)' },
        { row: 2, column: '忽略大小写', message: '[填空题] expected 是 or 否' },
        { row: 2, column: '答案', message: '[填空题] each blank accepts 1 to 20 answers of at most 200 characters' },
        { row: 1, column: '简答题', message: 'no header row naming the column 题干 (stem)' },
        { row: 1, column: 'Sheet1', message: 'unknown sheet: name it 单选题 (single), 多选题 (multiple), 判断题 (judge), 填空题 (blank), 简答题 (short)' },
      ]);
      expect(await count()).toBe(0);
    });

    it('refuses what is no workbook of questions, naming the field', async () => {
      expectRefusal(await send('', Buffer.from('题干,答案\nx,A\n')), 400, 'file');
      expectRefusal(await send('', Buffer.from([0x50, 0x4b, 0x05, 0x06, ...Array<number>(18).fill(0)])), 400, 'file');
      expectRefusal(await send('?dryRun=maybe', await workbook({ 判断题: [['题干', '答案']] })), 400, 'dryRun');
      expectRefusal(await call(app, 'POST', '/api/questions/import', teacher, { file: 'x' }), 400, 'file');
      expect(await imported('', await workbook({ 判断题: [['题干', '答案']] }))).toMatchObject({ total: 0, valid: 0, created: 0, errors: [] });
    });
  });

  describe('the download', () => {
    const QUESTIONS: QuestionCreateBody[] = [
      { type: 'single', stem: '<p>Plain &amp; simple &lt;tag&gt; text</p>', options: [{ key: 'A', text: '=SUM(A1)' }, { key: 'B', text: '-1' }, { key: 'C', text: 'c' }], answer: ['B'], analysis: '<p>Why <b>so</b></p>', difficulty: 4, tags: ['one', 'two'], score: 1.25 },
      { type: 'single', stem: '<p>=1+1 looks like a formula</p>', options: [{ key: 'A', text: 'a' }, { key: 'B', text: 'b' }], answer: ['A'] },
      {
        type: 'multiple',
        stem: '<h2>Title</h2><p>With an <img src="/api/questions/images/3" alt="x" /> image</p>',
        options: 'ABCDEFGHIJ'.split('').map((key) => ({ key: key as 'A', text: `option ${key}` })),
        answer: ['B', 'J'],
        policy: 'proportional_minus',
        score: 10,
        tags: ['many'],
      },
      { type: 'judge', stem: '<p>True?</p>', answer: ['T'], analysis: '<ul><li>one</li></ul>', difficulty: 1 },
      { type: 'judge', stem: '<p>Line one<br />line two</p>', answer: ['F'] },
      {
        type: 'blank',
        stem: '<p>a ____ b ____</p>',
        answer: [['x|y', 'back\\slash'], ['z', 'Z ']],
        blankRules: { ignoreCase: false, ignoreWidth: false, trimSpaces: false, ignoreInnerSpaces: true, anyOrder: true },
        score: 3.5,
      },
      { type: 'short', stem: '<p>Explain</p>', answer: ['Line one\nline two'], analysis: '', difficulty: 5 },
      { type: 'short', stem: '<p>No reference</p>', answer: [] },
    ];
    const fields = (question: Question) => {
      const { id: _id, createTime: _created, updateTime: _updated, createBy: _by, updateBy: _updateBy, ...rest } = question;
      return rest;
    };

    it('writes the import’s format, which imports into an emptied bank as it was', async () => {
      for (const question of QUESTIONS) await createQuestion(app, teacher, question);
      const before = (await bank()).map(fields);
      const file = await download('/api/questions/download');
      const book = await load(file);
      expect(book.worksheets.map((sheet) => sheet.name)).toEqual(SHEET_NAMES);
      const single = book.getWorksheet('单选题') as ExcelJS.Worksheet;
      expect((single.getRow(2).values as unknown[]).slice(1)).toEqual(HEADERS['单选题']);
      // A lone paragraph of text as its text; markup as HTML.
      expect(single.getCell(3, 1).value).toBe('Plain & simple <tag> text');
      expect(single.getCell(3, 13).value).toBe('<p>Why <b>so</b></p>');
      expect(book.getWorksheet('多选题')?.getCell(3, 1).value).toBe(QUESTIONS[2]?.stem);

      await db(app).deleteFrom('edu_question_tag').execute();
      await db(app).deleteFrom('edu_question').execute();
      expect(await imported('?dryRun=false', file)).toMatchObject({ total: QUESTIONS.length, valid: QUESTIONS.length, created: QUESTIONS.length, errors: [] });
      expect((await bank()).map(fields)).toEqual(before);
    });

    it('downloads what the filters match, audited', async () => {
      for (const question of QUESTIONS) await createQuestion(app, teacher, question);
      const book = await load(await download('/api/questions/download?type=judge&difficulty=1'));
      expect(book.worksheets.map((sheet) => sheet.name)).toEqual(['判断题']);
      expect((book.getWorksheet('判断题') as ExcelJS.Worksheet).actualRowCount).toBe(3);
      const logged = await db(app).selectFrom('sys_log').select(['description', 'username']).where('description', '=', '导出试题').execute();
      expect(logged.length).toBeGreaterThan(0);
      expectRefusal(await call(app, 'GET', '/api/questions/download?difficulty=0', teacher), 400, 'difficulty');
    });
  });
});
