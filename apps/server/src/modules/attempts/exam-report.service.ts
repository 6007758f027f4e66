import { countingAttempt, type CountsRule } from '@cloud-classroom/shared/attempt-rules';
import type { AttemptResponse, AttemptState, ExamReport } from '@cloud-classroom/shared/attempts';
import { formatDateTime } from '@cloud-classroom/shared/display';
import { discrimination, facility, histogram, mean, median, optionRates, roundTo, stdDev } from '@cloud-classroom/shared/exam-statistics';
import type { QuestionContent } from '../questions/questions.service.js';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { notFound } from '../../domain-error.js';
import { loadExcelJs, neutraliseCell } from '../../http/xlsx-export.js';
import type { AccessService } from '../access/access.service.js';
import type { Principal } from '../auth/session.service.js';
import { countAssignees, countEvents, findReportAnswers, findReportAttempts, type ReportAnswerRow, type ReportAttemptRow } from './exam-report.repo.js';
import { findExamHead } from './marking.repo.js';
import type { QuestionSource } from './marking.service.js';

export type ExamReportsOptions = {
  db: Kysely<Database>;
  access: AccessService;
  questions: QuestionSource;
};

/** The attempt's own milestones: not integrity signals. */
const LIFECYCLE_EVENTS = ['start', 'resume', 'submit'] as const;
const JUDGE_OPTIONS: { key: string; text: string }[] = [
  { key: 'T', text: 'True' },
  { key: 'F', text: 'False' },
];

const ratio = (value: number | null) => (value === null ? null : roundTo(value, 4));
const points = (value: number | null) => (value === null ? null : roundTo(value, 2));

function parseResponse(text: string | null): AttemptResponse {
  if (text === null) return null;
  try {
    return JSON.parse(text) as AttemptResponse;
  } catch {
    return null;
  }
}

/**
 * The exam's report (DESIGN §7, `/edu/report-exam`): one attempt per person, the one that counts by
 * the exam's rule (best, last, first) among their submitted attempts, for candidates within the
 * caller's data scope. Scores, the histogram, pass rate and spread are of the counted attempts
 * that are graded; so are the per-question figures (facility, discrimination by the upper and
 * lower 27 %, option choice rates, mean time), and the departments' breakdown. The arithmetic is
 * `shared/exam-statistics.ts`. Also as a workbook of six sheets.
 */
export class ExamReportsService {
  constructor(private readonly options: ExamReportsOptions) {}

  private get db(): Kysely<Database> {
    return this.options.db;
  }

  async report(caller: Principal, examId: number): Promise<ExamReport> {
    const exam = await findExamHead(this.db, examId);
    if (exam === undefined) throw notFound(`id: no exam ${examId}`);
    const scope = await this.options.access.dataScopeOf(caller.userId);
    const assigned = await countAssignees(this.db, examId, scope);
    const attempts = await findReportAttempts(this.db, examId, scope);
    const counted = countedAttempts(attempts, exam.counts as CountsRule);
    const graded = counted.filter((attempt) => attempt.state === 'graded' && attempt.score !== null);
    const scores = graded.map((attempt) => attempt.score as number);
    const passed = graded.filter((attempt) => attempt.passed === true).length;
    const answers = await findReportAnswers(this.db, graded.map((attempt) => attempt.id));
    const questions = await this.options.questions.contentsOf([...new Set(answers.map((answer) => answer.questionId))]);
    const events = await countEvents(this.db, counted.map((attempt) => attempt.id), LIFECYCLE_EVENTS);
    return {
      examId,
      title: exam.title,
      totalScore: exam.totalScore,
      passScore: exam.passScore,
      assigned,
      graded: graded.length,
      marking: counted.filter((attempt) => attempt.state === 'marking').length,
      inProgress: attempts.filter((attempt) => attempt.state === 'in_progress').length,
      passed,
      passRate: graded.length === 0 ? null : ratio(passed / graded.length),
      mean: points(mean(scores)),
      median: points(median(scores)),
      stdDev: points(stdDev(scores)),
      min: scores.length === 0 ? null : Math.min(...scores),
      max: scores.length === 0 ? null : Math.max(...scores),
      histogram: histogram(scores, exam.totalScore),
      questions: questionFigures(graded, answers, new Map(questions.map((question) => [question.id, question]))),
      departments: departmentFigures(graded),
      candidates: [...counted]
        .sort((a, b) => (b.score ?? -Infinity) - (a.score ?? -Infinity) || a.id - b.id)
        .map((attempt) => ({
          attemptId: attempt.id,
          userId: attempt.userId,
          username: attempt.username,
          nickName: attempt.nickName,
          deptName: attempt.deptName,
          state: attempt.state as AttemptState,
          score: attempt.score,
          passed: attempt.passed,
          submittedAt: attempt.submittedAt === null ? null : formatDateTime(attempt.submittedAt),
          events: events.get(attempt.id) ?? 0,
        })),
    };
  }

  /** The report as a workbook: summary, histogram, questions, options, departments, candidates. */
  async workbook(caller: Principal, examId: number): Promise<{ title: string; content: Buffer }> {
    const report = await this.report(caller, examId);
    const ExcelJS = await loadExcelJs();
    const workbook = new ExcelJS.Workbook();
    const sheet = (name: string, headers: string[], rows: (string | number | boolean | null)[][]) => {
      const worksheet = workbook.addWorksheet(name);
      worksheet.columns = headers.map((header) => ({ header, width: Math.max(12, header.length * 2 + 4) }));
      worksheet.getRow(1).font = { bold: true };
      for (const row of rows) worksheet.addRow(row.map(neutraliseCell));
    };
    const percent = (value: number | null) => (value === null ? null : roundTo(value * 100, 2));
    sheet(
      '概览',
      ['项目', '值'],
      [
        ['考试', report.title],
        ['总分', report.totalScore],
        ['及格分', report.passScore],
        ['分配人数', report.assigned],
        ['已评分', report.graded],
        ['阅卷中', report.marking],
        ['答题中', report.inProgress],
        ['及格人数', report.passed],
        ['及格率 (%)', percent(report.passRate)],
        ['平均分', report.mean],
        ['中位数', report.median],
        ['标准差', report.stdDev],
        ['最低分', report.min],
        ['最高分', report.max],
      ],
    );
    sheet(
      '分数分布',
      ['从', '到', '人数'],
      report.histogram.map((band) => [band.from, band.to, band.count]),
    );
    sheet(
      '试题分析',
      ['题号', '试题 ID', '题型', '题干', '满分', '作答人数', '难度系数', '区分度', '平均用时 (秒)'],
      report.questions.map((question, index) => [
        `Q${index + 1}`,
        question.questionId,
        question.type,
        question.stemText,
        question.maxScore,
        question.answered,
        question.facility,
        question.discrimination,
        question.meanSeconds,
      ]),
    );
    sheet(
      '选项分析',
      ['题号', '试题 ID', '选项', '内容', '正确答案', '选择率 (%)'],
      report.questions.flatMap((question, index) =>
        question.options.map((option) => [`Q${index + 1}`, question.questionId, option.key, option.text, option.correct ? '是' : '否', percent(option.rate)]),
      ),
    );
    sheet(
      '部门',
      ['部门', '已评分', '及格人数', '平均分'],
      report.departments.map((dept) => [dept.deptName, dept.graded, dept.passed, dept.mean]),
    );
    sheet(
      '考生',
      ['用户名', '昵称', '部门', '状态', '得分', '是否及格', '交卷时间', '异常事件'],
      report.candidates.map((candidate) => [
        candidate.username,
        candidate.nickName,
        candidate.deptName,
        candidate.state,
        candidate.score,
        candidate.passed === null ? null : candidate.passed ? '是' : '否',
        candidate.submittedAt,
        candidate.events,
      ]),
    );
    return { title: `${report.title}-成绩报表`, content: Buffer.from(await workbook.xlsx.writeBuffer()) };
  }
}

/** Each person's counted attempt among their submitted ones, by the exam's rule. */
function countedAttempts(attempts: readonly ReportAttemptRow[], counts: CountsRule): ReportAttemptRow[] {
  const byPerson = new Map<number, ReportAttemptRow[]>();
  for (const attempt of attempts) {
    if (attempt.state === 'in_progress') continue;
    const mine = byPerson.get(attempt.userId);
    if (mine === undefined) byPerson.set(attempt.userId, [attempt]);
    else mine.push(attempt);
  }
  const counted: ReportAttemptRow[] = [];
  for (const mine of byPerson.values()) {
    const attempt = countingAttempt(mine, counts);
    if (attempt !== undefined) counted.push(attempt);
  }
  return counted.sort((a, b) => a.id - b.id);
}

function questionFigures(graded: readonly ReportAttemptRow[], answers: readonly ReportAnswerRow[], questions: ReadonlyMap<number, QuestionContent>): ExamReport['questions'] {
  const totals = new Map(graded.map((attempt) => [attempt.id, attempt.score as number]));
  const byQuestion = new Map<number, ReportAnswerRow[]>();
  for (const answer of answers) {
    const rows = byQuestion.get(answer.questionId);
    if (rows === undefined) byQuestion.set(answer.questionId, [answer]);
    else rows.push(answer);
  }
  const firstPosition = (rows: readonly ReportAnswerRow[]) => Math.min(...rows.map((row) => row.position));
  return [...byQuestion.entries()]
    .sort(([idA, a], [idB, b]) => firstPosition(a) - firstPosition(b) || idA - idB)
    .map(([questionId, rows]) => {
      const question = questions.get(questionId);
      const maxScore = Math.max(...rows.map((row) => row.maxScore));
      const responses = rows.map((row) => parseResponse(row.response));
      const scores = rows.map((row) => row.score ?? 0);
      const type = question?.type ?? 'short';
      const choices: readonly { key: string; text: string }[] = type === 'single' || type === 'multiple' ? (question?.options ?? []) : type === 'judge' ? JUDGE_OPTIONS : [];
      const key = new Set(question !== undefined && type !== 'blank' ? (question.answer as string[]) : []);
      const rates = optionRates(
        choices.map((option) => option.key),
        responses,
      );
      return {
        questionId,
        type,
        stemText: question?.stemText ?? '',
        maxScore,
        answered: responses.filter(answeredSomething).length,
        facility: ratio(facility(scores, maxScore)),
        discrimination: ratio(discrimination(rows.map((row) => ({ total: totals.get(row.attemptId) ?? 0, score: row.score ?? 0 })), maxScore)),
        options: choices.map((option) => ({ key: option.key, text: option.text, correct: key.has(option.key), rate: ratio(rates.get(option.key) ?? 0) as number })),
        meanSeconds: ratio(mean(rows.map((row) => row.seconds))),
      };
    });
}

function answeredSomething(response: AttemptResponse): boolean {
  if (response === null) return false;
  if (typeof response === 'string') return response.trim() !== '';
  return response.some((part) => part.trim() !== '');
}

function departmentFigures(graded: readonly ReportAttemptRow[]): ExamReport['departments'] {
  const byDept = new Map<number | null, ReportAttemptRow[]>();
  for (const attempt of graded) {
    const rows = byDept.get(attempt.deptId);
    if (rows === undefined) byDept.set(attempt.deptId, [attempt]);
    else rows.push(attempt);
  }
  return [...byDept.entries()]
    .map(([deptId, rows]) => ({
      deptId,
      deptName: rows[0]?.deptName ?? '',
      graded: rows.length,
      passed: rows.filter((row) => row.passed === true).length,
      mean: points(mean(rows.map((row) => row.score as number))),
    }))
    .sort((a, b) => a.deptName.localeCompare(b.deptName, 'zh-CN') || (a.deptId ?? 0) - (b.deptId ?? 0));
}
