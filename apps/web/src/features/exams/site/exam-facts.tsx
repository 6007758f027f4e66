import type { SiteExam } from '@cloud-classroom/shared/exams';
import type { LocaleText } from '../../../lib/use-locale-text';
import './exam-site.css';

/**
 * What a learner is told of an exam before sitting it (limit, questions, scores, attempts left),
 * after the one time a page puts first (the exam list its due time, the exam's page its close).
 */
export function ExamFacts({ exam, t, lead }: { exam: SiteExam; t: LocaleText; lead?: { term: string; time: string } }) {
  return (
    <dl className="exam-site-facts">
      {lead !== undefined && (
        <div>
          <dt>{lead.term}</dt>
          <dd>{lead.time.slice(0, 16)}</dd>
        </div>
      )}
      <div>
        <dt>{t('myExams.limit')}</dt>
        <dd>{exam.limitMinutes === null ? t('myExams.noLimit') : t('site.minutes', { count: exam.limitMinutes })}</dd>
      </div>
      <div>
        <dt>{t('myExams.questions')}</dt>
        <dd>{exam.questionCount}</dd>
      </div>
      <div>
        <dt>{t('myExams.totalScore')}</dt>
        <dd>{exam.totalScore}</dd>
      </div>
      <div>
        <dt>{t('myExams.passScore')}</dt>
        <dd>{exam.passScore}</dd>
      </div>
      <div>
        <dt>{t('myExams.attemptsLeft')}</dt>
        <dd>{t('myExams.attemptsOf', { left: exam.attemptsLeft, allowed: exam.attemptsAllowed })}</dd>
      </div>
    </dl>
  );
}
