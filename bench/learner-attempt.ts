import type { AttemptQuestion, AttemptResponse, AttemptStart } from '@cloud-classroom/shared/attempts';
import { BENCH_PASSWORD } from './servers/bench-password.js';

/** The demo exam (seeded with BENCH_DEMO=1), assigned to learner1 and learner2 among others. */
export const DEMO_EXAM_TITLE = '消防安全基础 结业考试';

/** A real login as a seeded learner and a real start of their attempt at the demo exam. */
export async function startLearnerAttempt(baseUrl: string, username: string): Promise<{ headers: Record<string, string>; attempt: AttemptStart }> {
  const login = await fetch(`${baseUrl}/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: BENCH_PASSWORD }),
  });
  if (!login.ok) throw new Error(`bench: the login as ${username} answered ${login.status} ${await login.text()}`);
  const headers = { authorization: ((await login.json()) as { token: string }).token };
  const exam = await demoExamId(baseUrl, headers);
  const started = await fetch(`${baseUrl}/api/site/exams/${exam}/attempts`, { method: 'POST', headers });
  if (!started.ok) throw new Error(`bench: the start answered ${started.status} ${await started.text()}`);
  return { headers, attempt: (await started.json()) as AttemptStart };
}

export async function demoExamId(baseUrl: string, headers: Record<string, string>): Promise<number> {
  const exams = await fetch(`${baseUrl}/api/site/exams`, { headers });
  if (!exams.ok) throw new Error(`bench: the exam list answered ${exams.status} ${await exams.text()}`);
  const exam = ((await exams.json()) as { id: number; title: string }[]).find((candidate) => candidate.title === DEMO_EXAM_TITLE);
  if (exam === undefined) throw new Error('bench: the demo exam is not assigned to this learner');
  return exam.id;
}

/** An answer of the question's shape, one of a few that change with the revision, as a candidate changing their mind. */
export function answerFor(question: AttemptQuestion, revision: number): AttemptResponse {
  const keys = question.options.map((option) => option.key);
  switch (question.type) {
    case 'single':
      return keys[revision % keys.length] as string;
    case 'multiple':
      return keys.slice(0, 1 + (revision % keys.length));
    case 'judge':
      return revision % 2 === 0 ? 'T' : 'F';
    case 'blank':
      return Array.from({ length: question.blanks }, (_, index) => `答案 ${revision}-${index + 1}`);
    default:
      return `第 ${revision} 稿：先切断电源，再用干粉灭火器对准火焰根部喷射。`;
  }
}
