import type { AttemptResult } from '@cloud-classroom/shared/attempts';
import { Link } from 'react-router';
import { SiteTag } from '../../../components/site/site-tag';
import { useLocaleText } from '../../../lib/use-locale-text';
import { QuestionView } from '../../questions/site/question-view';
import { minuteOf, paperOfReview } from './attempt-paper';

/**
 * A finished attempt as the exam's review policy lets me see it: while marking, that it is being
 * marked; once graded, the score and whether it passed; and, when the review is open, each
 * question with my answer, and the key, the analysis and the marker's comment once the server
 * shows them (not while I, or anyone, may still sit the exam: `keyLater`, said as such).
 */
export function AttemptResultView({ result }: { result: AttemptResult }) {
  const { t } = useLocaleText();
  const inProgress = result.state === 'in_progress';
  return (
    <article className="exam-result" aria-labelledby="exam-result-title">
      <header className="exam-result__head">
        <h1 id="exam-result-title" className="site-page-title">
          {result.title}
        </h1>
        <p className="exam-result__tags">
          <SiteTag>{t('answerExam.attemptNumber', { number: result.number })}</SiteTag>
          {result.state === 'marking' && <SiteTag tone="warning">{t('answerExam.stateMarking')}</SiteTag>}
          {result.state === 'graded' && <SiteTag tone="primary">{t('answerExam.stateGraded')}</SiteTag>}
          {result.released && result.passed !== null && <SiteTag tone={result.passed ? 'success' : 'danger'}>{t(result.passed ? 'answerExam.passed' : 'answerExam.failed')}</SiteTag>}
        </p>
      </header>

      {inProgress ? (
        <div className="site-card exam-result__summary">
          <p>{t('answerExam.stillOpen')}</p>
          <Link className="button button--primary" to={`/answer-exam?exam=${result.examId}`}>
            {t('answerExam.resume')}
          </Link>
        </div>
      ) : (
        <div className="site-card exam-result__summary">
          {result.released && result.score !== null ? (
            <p className="exam-result__score">
              <span className="exam-result__score-value">{result.score}</span>
              <span className="site-muted"> / {result.totalScore}</span>
              <span className="exam-result__pass site-muted">{t('answerExam.passMark', { score: result.passScore })}</span>
            </p>
          ) : (
            <p className="exam-result__pending">{t('answerExam.resultLater')}</p>
          )}
          <dl className="exam-site-facts">
            {result.submittedAt !== null && (
              <div>
                <dt>{t('answerExam.submittedAt')}</dt>
                <dd>{minuteOf(result.submittedAt)}</dd>
              </div>
            )}
            <div>
              <dt>{t('answerExam.answered')}</dt>
              <dd>{t('answerExam.answeredCount', { answered: result.answeredCount, total: result.questionCount })}</dd>
            </div>
          </dl>
          {result.submittedBy === 'server' && <p className="site-notice">{t('answerExam.submittedByServer')}</p>}
        </div>
      )}

      {!inProgress && (
        <section className="exam-result__review" aria-labelledby="exam-review-title">
          <h2 id="exam-review-title" className="site-section__title site-section__title--spaced">
            {t('answerExam.review')}
          </h2>
          {result.keyLater && <p className="site-notice">{t('answerExam.keyLater')}</p>}
          {result.questions.length > 0 ? (
            <ol className="exam-result__questions">
              {result.questions.map((question, index) => (
                <li key={question.id} className="site-card">
                  <QuestionView
                    question={paperOfReview(question)}
                    index={index + 1}
                    response={question.response}
                    showKey={question.answer !== undefined}
                    verdict={result.keyLater ? false : result.released ? { earned: question.earned, correct: question.correct } : undefined}
                  />
                  {question.comment !== null && question.comment !== '' && (
                    <p className="exam-result__comment">
                      <strong>{t('answerExam.comment')}</strong> {question.comment}
                    </p>
                  )}
                </li>
              ))}
            </ol>
          ) : (
            <p className="site-muted">{result.reviewFrom !== null ? t('answerExam.reviewFrom', { time: minuteOf(result.reviewFrom) }) : t('answerExam.noReview')}</p>
          )}
        </section>
      )}

      <nav className="exam-result__links" aria-label={t('answerExam.more')}>
        <Link className="button" to={`/answer-exam?exam=${result.examId}`}>
          {t('answerExam.examPage')}
        </Link>
        <Link className="button" to="/user-center">
          {t('answerExam.myExams')}
        </Link>
      </nav>
    </article>
  );
}
