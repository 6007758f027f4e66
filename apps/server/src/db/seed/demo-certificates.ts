import { countingAttempt, type CountsRule } from '@cloud-classroom/shared/attempt-rules';
import { dayInZone, endOfValidity } from '@cloud-classroom/shared/calendar-day';
import {
  addMonthsToDate,
  certificateLayoutSchema,
  certificateSnapshotSchema,
  DEFAULT_CERTIFICATE_NUMBER_PATTERN,
  formatCertificateNumber,
} from '@cloud-classroom/shared/certificates';
import { sql, type Transaction } from 'kysely';
import { randomCertificateCode, sequenceScope } from '../../modules/certificates/certificates.service.js';
import { created } from '../audit-columns.js';
import type { Database } from '../schema.js';
import { DEMO_EXAM } from './demo-exams.js';

// The demo's certificates (issue 14): a template, the rule that issues it to whoever passes the
// demo exam (so learner1 passing it on a fresh start gets one), what that rule issued to the
// candidates who passed already, and a certificate of the demo course for learner1..3 showing
// each status: learner1's valid, learner2's revoked, learner3's expired.

const DAY_MS = 24 * 60 * 60 * 1000;

export const DEMO_CERT_TEMPLATE = { name: '消防安全结业证书', validityMonths: 24 };

/** The title of the demo certificates issued by hand: the year's evacuation drill. */
export const demoDrillTitle = (year: number) => `${year} 年度消防疏散演练`;

export const DEMO_CERT_LAYOUT = certificateLayoutSchema.parse({
  pageSize: 'A4',
  orientation: 'landscape',
  fields: [
    { kind: 'freeText', x: 20, y: 26, width: 257, fontSize: 34, align: 'center', bold: true, color: '#8a1c1c', text: '结业证书' },
    { kind: 'freeText', x: 20, y: 44, width: 257, fontSize: 12, align: 'center', color: '#666666', text: 'CERTIFICATE OF COMPLETION' },
    { kind: 'holderName', x: 20, y: 68, width: 257, fontSize: 30, align: 'center', bold: true },
    { kind: 'freeText', x: 20, y: 88, width: 257, fontSize: 14, align: 'center', text: '完成了以下培训并考核合格，特发此证。' },
    { kind: 'title', x: 20, y: 102, width: 257, fontSize: 20, align: 'center' },
    { kind: 'score', x: 20, y: 116, width: 257, fontSize: 13, align: 'center', prefix: '成绩：' },
    { kind: 'issuedOn', x: 30, y: 160, width: 120, fontSize: 12, prefix: '颁发日期：', dateFormat: '{yyyy}年{MM}月{dd}日' },
    { kind: 'expiresOn', x: 30, y: 168, width: 120, fontSize: 12, prefix: '有效期至：', dateFormat: '{yyyy}年{MM}月{dd}日' },
    { kind: 'number', x: 30, y: 176, width: 140, fontSize: 12, prefix: '证书编号：' },
    { kind: 'qrCode', x: 242, y: 150, size: 36 },
  ],
});

type DemoIssue = {
  username: string;
  title: string;
  score: string | null;
  issuedAt: number;
  source: 'staff' | 'exam';
  examId: number | null;
  ruleId: number | null;
};

/** Inserts the template, its rule on the demo exam and the demo certificates; inside the seed's transaction, after the demo attempts. */
export async function insertDemoCertificates(trx: Transaction<Database>, examId: number, now: number, timeZone: string): Promise<void> {
  // Rows inserted directly, as the certificates module would have written them.
  const audit = created('system', now);
  const { id: templateId } = await trx
    .insertInto('edu_cert_template')
    .values({ ...audit, name: DEMO_CERT_TEMPLATE.name, number_pattern: DEFAULT_CERTIFICATE_NUMBER_PATTERN, validity_months: DEMO_CERT_TEMPLATE.validityMonths, current_version_id: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  const { id: versionId } = await trx
    .insertInto('edu_cert_template_version')
    .values({ template_id: templateId, version: 1, layout: JSON.stringify(DEMO_CERT_LAYOUT), create_by: 'system', create_time: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  await trx.updateTable('edu_cert_template').set({ current_version_id: versionId }).where('id', '=', templateId).execute();
  const { id: ruleId } = await trx.insertInto('edu_cert_rule').values({ ...audit, template_id: templateId, exam_id: examId, term_id: null }).returning('id').executeTakeFirstOrThrow();
  const nextSequence = async (scope: string) =>
    Number(
      (
        await trx
          .insertInto('edu_cert_sequence')
          .values({ scope, value: 1 })
          .onConflict((conflict) => conflict.column('scope').doUpdateSet({ value: sql<number>`edu_cert_sequence.value + 1` }))
          .returning('value')
          .executeTakeFirstOrThrow()
      ).value,
    );

  const users = new Map((await trx.selectFrom('sys_user').select(['id', 'username', 'nick_name']).execute()).map((user) => [user.username, user]));
  const issues: DemoIssue[] = [];
  // What the rule would have issued to those who passed (one each, on their counted attempt's day).
  const attempts = await trx.selectFrom('edu_attempt').select(['id', 'user_id', 'started_at', 'submitted_at', 'score', 'passed']).where('exam_id', '=', examId).where('state', '=', 'graded').execute();
  const usernames = new Map([...users.values()].map((user) => [user.id, user.username]));
  for (const userId of new Set(attempts.map((attempt) => attempt.user_id))) {
    const mine = attempts.filter((attempt) => attempt.user_id === userId).map((attempt) => ({ ...attempt, startedAt: attempt.started_at, score: attempt.score }));
    const counted = countingAttempt(mine, DEMO_EXAM.counts as CountsRule);
    if (counted === undefined || counted.passed !== 1) continue;
    const firstPass = mine.filter((attempt) => attempt.passed === 1).sort((a, b) => a.startedAt - b.startedAt)[0] ?? counted;
    issues.push({ username: usernames.get(userId) as string, title: DEMO_EXAM.title, score: String(counted.score), issuedAt: firstPass.submitted_at ?? now, source: 'exam', examId, ruleId });
  }
  // Issued by hand for the yearly evacuation drill, before the demo course: learner1 is still
  // taking that course, so a certificate of it would claim what has not happened.
  const drill = (username: string, issuedAt: number): DemoIssue => ({
    username,
    title: demoDrillTitle(new Date(issuedAt).getFullYear()),
    score: null,
    issuedAt,
    source: 'staff',
    examId: null,
    ruleId: null,
  });
  const learner1 = drill('learner1', now - 30 * DAY_MS);
  const learner2 = drill('learner2', now - 60 * DAY_MS);
  // Issued long enough ago that its two years of validity ran out.
  const learner3 = drill('learner3', now - 800 * DAY_MS);
  issues.push(learner3, learner2, learner1);
  // Numbers in the order of issue, as the sequence would have given them.
  issues.sort((a, b) => a.issuedAt - b.issuedAt);

  for (const issue of issues) {
    const user = users.get(issue.username);
    if (user === undefined) continue;
    const issuedOn = dayInZone(issue.issuedAt, timeZone);
    const expiresOn = addMonthsToDate(issuedOn, DEMO_CERT_TEMPLATE.validityMonths);
    const number = formatCertificateNumber(DEFAULT_CERTIFICATE_NUMBER_PATTERN, issue.issuedAt, await nextSequence(sequenceScope(DEFAULT_CERTIFICATE_NUMBER_PATTERN, issuedOn)));
    const snapshot = certificateSnapshotSchema.parse({ holderName: user.nick_name, title: issue.title, score: issue.score, issuedOn, expiresOn, number });
    const revoked = issue === learner2;
    await trx
      .insertInto('edu_certificate')
      .values({
        template_id: templateId,
        template_version_id: versionId,
        user_id: user.id,
        number,
        code: randomCertificateCode(),
        snapshot: JSON.stringify(snapshot),
        holder_name: snapshot.holderName,
        title: snapshot.title,
        source: issue.source,
        exam_id: issue.examId,
        term_id: null,
        issued_at: issue.issuedAt,
        expires_at: endOfValidity(expiresOn, timeZone),
        revoked_at: revoked ? now - 10 * DAY_MS : null,
        revoked_by: revoked ? 'admin' : null,
        revoke_reason: revoked ? '培训记录有误，待核实后重新颁发' : null,
        superseded_by: null,
        superseded_at: null,
        supersedes: null,
        rule_id: issue.ruleId,
        create_by: issue.source === 'exam' ? 'system' : 'admin',
        create_time: issue.issuedAt,
      })
      .execute();
  }
}

