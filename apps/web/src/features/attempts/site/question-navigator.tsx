import type { AttemptQuestion, AttemptResponse } from '@cloud-classroom/shared/attempts';
import { useLocaleText } from '../../../lib/use-locale-text';
import { isAnswered } from './attempt-paper';

export type QuestionNavigatorProps = {
  questions: readonly AttemptQuestion[];
  responses: ReadonlyMap<number, AttemptResponse>;
  flagged: ReadonlySet<number>;
  current: number;
  onPick: (index: number) => void;
};

/**
 * The paper's questions as numbers, each saying whether it is answered, flagged or not answered
 * yet (by colour, by mark and in its name), the one shown marked as current.
 */
export function QuestionNavigator({ questions, responses, flagged, current, onPick }: QuestionNavigatorProps) {
  const { t } = useLocaleText();
  return (
    <nav className="exam-nav" aria-label={t('answerExam.navigator')}>
      <ol className="exam-nav__list">
        {questions.map((question, index) => {
          const answered = isAnswered(responses.get(question.id));
          const isFlagged = flagged.has(question.id);
          const state = t(answered ? 'answerExam.stateAnswered' : 'answerExam.stateUnanswered');
          const className = ['exam-nav__item', answered && 'exam-nav__item--answered', isFlagged && 'exam-nav__item--flagged', index === current && 'exam-nav__item--current']
            .filter(Boolean)
            .join(' ');
          return (
            <li key={question.id}>
              <button
                type="button"
                className={className}
                aria-current={index === current ? 'step' : undefined}
                aria-label={t(isFlagged ? 'answerExam.navItemFlagged' : 'answerExam.navItem', { number: index + 1, state })}
                onClick={() => onPick(index)}
              >
                {index + 1}
              </button>
            </li>
          );
        })}
      </ol>
      <ul className="exam-nav__legend" aria-hidden="true">
        <li>
          <span className="exam-nav__swatch exam-nav__swatch--answered" />
          {t('answerExam.stateAnswered')}
        </li>
        <li>
          <span className="exam-nav__swatch exam-nav__swatch--flagged" />
          {t('answerExam.stateFlagged')}
        </li>
        <li>
          <span className="exam-nav__swatch" />
          {t('answerExam.stateUnanswered')}
        </li>
      </ul>
    </nav>
  );
}
