import type { Exam, ExamStatus } from '@cloud-classroom/shared/exams';
import { Tag } from 'antd';
import { useExamMessages, type ExamTranslate } from './exams-messages';

export function ExamStatusTag({ status }: { status: ExamStatus }) {
  const t = useExamMessages();
  return <Tag color={status === 'published' ? 'green' : 'default'}>{t(`exams.status.${status}`)}</Tag>;
}

/** An exam's window in one cell: from – to, either end open. */
export function windowText(exam: Pick<Exam, 'openAt' | 'closeAt'>, t: ExamTranslate): string {
  const short = (at: string) => at.slice(0, 16);
  if (exam.openAt === null && exam.closeAt === null) return t('exams.alwaysOpen');
  if (exam.closeAt === null) return t('exams.opensAt', { at: short(exam.openAt as string) });
  if (exam.openAt === null) return t('exams.closesAt', { at: short(exam.closeAt) });
  return `${short(exam.openAt)} – ${short(exam.closeAt)}`;
}
