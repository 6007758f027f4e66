import { displayedLabel } from '@cloud-classroom/shared/attempt-rules';
import type { PaperQuestion } from '@cloud-classroom/shared/exams';
import { JUDGE_KEYS, scorableOf, scoreResponse, type ScorableQuestion, type Scored } from '@cloud-classroom/shared/question-scoring';
import { BLANK_ANSWER_MAX_LENGTH } from '@cloud-classroom/shared/text-limits';
import { useId, type ReactNode } from 'react';
import { LimitedTextField } from '../../../components/site/limited-text-field';
import { useLocaleText, type LocaleText } from '../../../lib/use-locale-text';
import '../../../components/rich-text/rich-text.css';
import './question-view.css';

/** A learner's answer as the view holds it: a key (single, judge), keys (multiple), one text per blank (blank), a text (short). */
export type QuestionViewResponse = string | string[] | null;

export type QuestionViewProps = {
  question: PaperQuestion;
  /** Its number in the paper, from 1. */
  index: number;
  response: QuestionViewResponse;
  /** Without it the question is shown read-only. */
  onChange?: (response: QuestionViewResponse) => void;
  /** Mark the right options or the accepted answers, show the analysis and the verdict (needs `question.answer`). */
  showKey?: boolean;
  /**
   * What the verdict says, with the key shown: by default what scoring here makes of the
   * response (the question editor's preview); a finished attempt's score from the server, which
   * knows the exam's partial-credit policy and a marker's judgement (`earned` null: not marked
   * yet); or `false`, none at all (the marking queue shows the server's score itself).
   */
  verdict?: { earned: number | null; correct: boolean | null } | false;
  /** Staff reading a candidate's paper: each option's key in the bank beside the label the candidate saw, where they differ. */
  bankKeys?: boolean;
};

const listOf = (response: QuestionViewResponse): string[] => (response === null ? [] : typeof response === 'string' ? [response] : response);

/** What scoring needs, when the question carries its key. */
const scorableOfPaper = ({ answer, ...question }: PaperQuestion): ScorableQuestion | undefined =>
  answer === undefined ? undefined : scorableOf({ ...question, answer }, question.score);

/**
 * One question as a learner sees it (DESIGN §7), answerable with native inputs: the exam pages
 * render the paper with it, and the back office's question editor previews with it, so staff see
 * exactly what learners do. The stem and analysis come sanitised by the server. Options come in
 * the order shown (a shuffled paper's own) and are labelled A, B, C… in it (`displayedLabel`),
 * while responses and keys stay the question's keys.
 */
export function QuestionView({ question, index, response, onChange, showKey = false, verdict, bankKeys = false }: QuestionViewProps) {
  const { t } = useLocaleText();
  const id = useId();
  const titleId = `${id}-title`;
  const stemId = `${id}-stem`;
  const scorable = showKey && verdict !== false ? scorableOfPaper(question) : undefined;
  const scored = scorable === undefined ? undefined : scoreResponse(scorable, response);
  const overall = verdict === false ? undefined : verdict === undefined ? scored : { score: verdict.earned, correct: verdict.correct };
  const keyList = showKey && question.answer !== undefined ? question.answer : undefined;
  const rightKeys = keyList?.filter((item): item is string => typeof item === 'string') ?? [];

  let body: ReactNode;
  switch (question.type) {
    case 'single':
    case 'multiple':
    case 'judge': {
      const multiple = question.type === 'multiple';
      const order = question.options.map((option) => option.key);
      const choices =
        question.type === 'judge'
          ? JUDGE_KEYS.map((key) => ({ key, text: t(`question.judge.${key}`), label: undefined }))
          : question.options.map((option) => ({ ...option, label: displayedLabel(order, option.key) }));
      const picked = listOf(response);
      const pick = (key: string, checked: boolean) => {
        if (onChange === undefined) return;
        if (!multiple) onChange(key);
        else {
          const next = checked ? [...new Set([...picked, key])] : picked.filter((item) => item !== key);
          onChange(next.length === 0 ? null : next.sort());
        }
      };
      body = (
        <fieldset className="question-view__choices" aria-labelledby={titleId} aria-describedby={stemId}>
          {multiple && <p className="question-view__hint">{t('question.multipleHint')}</p>}
          {choices.map((choice) => {
            const checked = picked.includes(choice.key);
            const right = keyList !== undefined && rightKeys.includes(choice.key);
            const className = ['question-view__choice', checked && 'question-view__choice--picked', right && 'question-view__choice--right'].filter(Boolean).join(' ');
            return (
              <label key={choice.key} className={className}>
                <input
                  type={multiple ? 'checkbox' : 'radio'}
                  name={`${id}-choice`}
                  value={choice.key}
                  checked={checked}
                  disabled={onChange === undefined}
                  onChange={(event) => pick(choice.key, event.target.checked)}
                />
                {choice.label !== undefined && (
                  <span className="question-view__key">
                    {choice.label}
                    {bankKeys && choice.label !== choice.key && t('question.bankKey', { key: choice.key })}.
                  </span>
                )}
                <span className="question-view__text">{choice.text}</span>
                {right && <span className="question-view__mark">✓ {t('question.rightOption')}</span>}
              </label>
            );
          })}
        </fieldset>
      );
      break;
    }
    case 'blank': {
      const given = listOf(response);
      const accepted = keyList?.map((item) => (Array.isArray(item) ? item : [item])) ?? [];
      const change = (blank: number, text: string) => {
        if (onChange === undefined) return;
        const next = Array.from({ length: question.blanks }, (_, index) => (index === blank ? text : (given[index] ?? '')));
        onChange(next.every((item) => item === '') ? null : next);
      };
      body = (
        <ol className="question-view__blanks" aria-labelledby={titleId}>
          {Array.from({ length: question.blanks }, (_, blank) => {
            const verdict = scored?.blanks?.[blank];
            return (
              <li key={blank} className="question-view__blank">
                <div className="question-view__blank-field">
                  <label className="question-view__blank-label">
                    <span className="question-view__blank-number" aria-hidden="true">
                      {blank + 1}.
                    </span>
                    <span className="question-view__sr">{t('question.blankLabel', { number: blank + 1 })}</span>
                    <LimitedTextField
                      type="text"
                      className="question-view__input"
                      value={given[blank] ?? ''}
                      readOnly={onChange === undefined}
                      max={BLANK_ANSWER_MAX_LENGTH}
                      autoComplete="off"
                      onChange={(text) => change(blank, text)}
                    />
                  </label>
                  {verdict !== undefined && <BlankVerdict right={verdict} t={t} />}
                </div>
                {keyList !== undefined && (accepted[blank]?.length ?? 0) > 0 && (
                  <p className="question-view__accepted">{t('question.accepted', { answers: (accepted[blank] ?? []).join(' / ') })}</p>
                )}
              </li>
            );
          })}
        </ol>
      );
      break;
    }
    case 'short': {
      const reference = rightKeys[0] ?? '';
      body = (
        <>
          <label className="question-view__short">
            <span className="question-view__sr">{t('question.shortLabel')}</span>
            <textarea
              className="question-view__input question-view__textarea"
              rows={5}
              value={listOf(response)[0] ?? ''}
              readOnly={onChange === undefined}
              aria-describedby={stemId}
              onChange={(event) => onChange?.(event.target.value === '' ? null : event.target.value)}
            />
          </label>
          {keyList !== undefined && reference !== '' && (
            <div className="question-view__reference">
              <h4 className="question-view__subtitle">{t('question.reference')}</h4>
              <p>{reference}</p>
            </div>
          )}
        </>
      );
      break;
    }
  }

  return (
    <article className="question-view" aria-labelledby={titleId}>
      <header className="question-view__header">
        <h3 className="question-view__title" id={titleId}>
          <span className="question-view__index">{index}.</span> <span className="question-view__type">{t(`question.type.${question.type}`)}</span>
        </h3>
        <span className="question-view__score">{t('question.points', { count: question.score })}</span>
      </header>
      <div id={stemId} className="rich-text question-view__stem" dangerouslySetInnerHTML={{ __html: question.stem }} />
      {body}
      {overall !== undefined && <Verdict scored={overall} total={question.score} answered={listOf(response).some((item) => item !== '')} t={t} />}
      {showKey && question.analysis !== undefined && question.analysis !== '' && (
        <section className="question-view__analysis">
          <h4 className="question-view__subtitle">{t('question.analysis')}</h4>
          <div className="rich-text" dangerouslySetInnerHTML={{ __html: question.analysis }} />
        </section>
      )}
    </article>
  );
}

function BlankVerdict({ right, t }: { right: boolean; t: LocaleText }) {
  return (
    <span className={`question-view__blank-verdict question-view__blank-verdict--${right ? 'right' : 'wrong'}`}>
      <span aria-hidden="true">{right ? '✓' : '✗'}</span>
      <span className="question-view__sr">{t(right ? 'question.blankRight' : 'question.blankWrong')}</span>
    </span>
  );
}

function Verdict({ scored, total, answered, t }: { scored: Pick<Scored, 'score' | 'correct'>; total: number; answered: boolean; t: LocaleText }) {
  if (scored.score === null) {
    return <p className="question-view__verdict">{t('question.verdict.manual', { total })}</p>;
  }
  const kind = !answered ? 'unanswered' : scored.correct === true ? 'correct' : scored.score > 0 ? 'partial' : 'wrong';
  return (
    <p className={`question-view__verdict question-view__verdict--${kind}`}>
      <strong>{t(`question.verdict.${kind}`)}</strong> · {t('question.verdict.score', { score: scored.score, count: total })}
    </p>
  );
}
