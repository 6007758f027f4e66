import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { MAX_DRAW_COUNT, MAX_SECTIONS, paperSectionSchema, type DrawCheckResult } from '@cloud-classroom/shared/exams';
import { DIFFICULTIES, MAX_QUESTION_SCORE, type Question } from '@cloud-classroom/shared/questions';
import { QUESTION_TYPES } from '@cloud-classroom/shared/question-scoring';
import { useQueries, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Empty, Flex, InputNumber, Select, Space, Statistic, Tooltip, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { drawCheckQuery, questionQuery, questionTagsQuery } from './exams-api';
import { useExamMessages } from './exams-messages';
import { checkablePaperOf, draftTotals, moved, newRule, newSection, type DrawRuleDraft, type PaperDraft, type SectionDraft } from './paper-draft';
import { QuestionFacts, QuestionPickerDialog } from './question-picker-dialog';
import { LimitedInput } from '../../components/form/limited-input';

/** How long the paper rests before the live count asks again. */
const CHECK_DELAY_MS = 400;

function useSettled<T>(value: T, delay: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return settled;
}

export type PaperBuilderProps = {
  value?: PaperDraft;
  onChange?: (paper: PaperDraft) => void;
  /** Refusals by place (`paperRefusalOf`): `paper`, `s1`, `s1.title`, `s1.questions`, `s1.r0`… */
  errors: ReadonlyMap<string, string>;
};

const ErrorText = ({ text }: { text: string | undefined }) =>
  text === undefined ? null : (
    <Typography.Text type="danger" role="alert" className="paper-error">
      {text}
    </Typography.Text>
  );

/**
 * The paper: sections in order, each with fixed questions (picked from the bank) and draw rules
 * (questions drawn for each learner), a live count of what each rule can draw, and the running
 * full marks. A form field: `value` / `onChange` hold the whole draft.
 */
export function PaperBuilder({ value, onChange, errors }: PaperBuilderProps) {
  const t = useExamMessages();
  const queryClient = useQueryClient();
  const paper = value ?? { sections: [] };
  const [picking, setPicking] = useState<string>();
  const tags = useQuery(questionTagsQuery());

  const allIds = paper.sections.flatMap((section) => section.questionIds);
  const questions = useQueries({ queries: allIds.map((id) => questionQuery(id)) });
  const known = new Map<number, Question>();
  questions.forEach((result) => result.data !== undefined && known.set(result.data.id, result.data));

  const checkable = checkablePaperOf(paper);
  const settled = useSettled(checkable, CHECK_DELAY_MS);
  const check = useQuery({ ...drawCheckQuery(settled ?? { sections: [] }), enabled: settled !== undefined });
  // An answer about another paper than the one shown (still settling) would put counts on the wrong rows.
  const current = checkable !== undefined && JSON.stringify(settled) === JSON.stringify(checkable);
  const result: DrawCheckResult | undefined = current ? check.data : undefined;
  const local = draftTotals(paper, (id) => known.get(id)?.score);
  const totals = result !== undefined && allIds.every((id) => known.has(id)) ? result : local;

  const setSections = (sections: SectionDraft[]) => onChange?.({ sections });
  const setSection = (index: number, changes: Partial<SectionDraft>) =>
    setSections(paper.sections.map((section, at) => (at === index ? { ...section, ...changes } : section)));
  const setRule = (index: number, ruleIndex: number, changes: Partial<DrawRuleDraft>) =>
    setSection(index, { draw: (paper.sections[index]?.draw ?? []).map((rule, at) => (at === ruleIndex ? { ...rule, ...changes } : rule)) });

  const pickingIndex = paper.sections.findIndex((section) => section.key === picking);

  return (
    <div className="paper-builder">
      <Flex gap={24} wrap className="paper-totals" aria-live="polite">
        <Statistic title={t('exams.totalScore')} value={totals.totalScore} />
        <Statistic title={t('exams.questionCount')} value={totals.questionCount} />
        <Statistic title={t('exams.sectionCount')} value={paper.sections.length} />
      </Flex>
      {errors.get('paper') !== undefined && <Alert type="error" showIcon message={errors.get('paper')} style={{ marginBottom: 12 }} />}
      {paper.sections.map((section, index) => {
        const sectionRules = result?.sections[index]?.rules ?? [];
        return (
          <Card
            key={section.key}
            size="small"
            className="paper-section"
            data-testid={`section-${index + 1}`}
            title={
              <Flex gap={8} align="center" wrap>
                <span>{t('exams.sectionN', { n: index + 1 })}</span>
              </Flex>
            }
            extra={
              <Space size={0}>
                <Tooltip title={t('exams.moveUp')}>
                  <Button type="text" size="small" icon={<ArrowUpOutlined />} aria-label={t('exams.moveSectionUp')} disabled={index === 0} onClick={() => setSections(moved(paper.sections, index, -1))} />
                </Tooltip>
                <Tooltip title={t('exams.moveDown')}>
                  <Button
                    type="text"
                    size="small"
                    icon={<ArrowDownOutlined />}
                    aria-label={t('exams.moveSectionDown')}
                    disabled={index === paper.sections.length - 1}
                    onClick={() => setSections(moved(paper.sections, index, 1))}
                  />
                </Tooltip>
                <Tooltip title={t('exams.removeSection')}>
                  <Button
                    type="text"
                    size="small"
                    danger
                    icon={<DeleteOutlined />}
                    aria-label={t('exams.removeSection')}
                    disabled={paper.sections.length === 1}
                    onClick={() => setSections(paper.sections.filter((_section, at) => at !== index))}
                  />
                </Tooltip>
              </Space>
            }
            style={{ marginBottom: 12 }}
          >
            <ErrorText text={errors.get(`s${index}`)} />
            <Flex gap={12} wrap align="flex-start" className="paper-section__head">
              <div className="paper-field paper-field--grow">
                <span>{t('exams.sectionTitle')}</span>
                <LimitedInput
                  schema={paperSectionSchema.shape.title}
                  value={section.title}
                  status={errors.has(`s${index}.title`) ? 'error' : undefined}
                  aria-label={t('exams.sectionTitleOf', { n: index + 1 })}
                  onChange={(event) => setSection(index, { title: event.target.value })}
                />
                <ErrorText text={errors.get(`s${index}.title`)} />
              </div>
              <div className="paper-field">
                <span>{t('exams.fixedScore')}</span>
                <InputNumber
                  value={section.score}
                  min={0.01}
                  max={MAX_QUESTION_SCORE}
                  precision={2}
                  placeholder={t('exams.fixedScoreOwn')}
                  aria-label={t('exams.fixedScoreOf', { n: index + 1 })}
                  status={errors.has(`s${index}.score`) ? 'error' : undefined}
                  onChange={(score) => setSection(index, { score: score ?? null })}
                  style={{ width: 160 }}
                />
                <ErrorText text={errors.get(`s${index}.score`)} />
              </div>
            </Flex>

            <Typography.Title level={5} className="paper-subtitle">
              {t('exams.fixedQuestions', { count: section.questionIds.length })}
            </Typography.Title>
            <ErrorText text={errors.get(`s${index}.questions`)} />
            {section.questionIds.length === 0 ? (
              <Typography.Paragraph type="secondary">{t('exams.noFixed')}</Typography.Paragraph>
            ) : (
              <ol className="paper-questions">
                {section.questionIds.map((id, at) => {
                  const question = known.get(id);
                  return (
                    <li key={id} className="paper-question">
                      <div className="paper-question__text">
                        <Typography.Text ellipsis={{ tooltip: question?.stemText }} style={{ display: 'block' }}>
                          {question === undefined ? `#${id}` : question.stemText || t('exams.imageOnly')}
                        </Typography.Text>
                        {question !== undefined && <QuestionFacts question={{ ...question, score: section.score ?? question.score }} />}
                      </div>
                      <Space size={0} className="paper-question__actions">
                        <Button type="text" size="small" icon={<ArrowUpOutlined />} aria-label={t('exams.moveQuestionUp')} disabled={at === 0} onClick={() => setSection(index, { questionIds: moved(section.questionIds, at, -1) })} />
                        <Button
                          type="text"
                          size="small"
                          icon={<ArrowDownOutlined />}
                          aria-label={t('exams.moveQuestionDown')}
                          disabled={at === section.questionIds.length - 1}
                          onClick={() => setSection(index, { questionIds: moved(section.questionIds, at, 1) })}
                        />
                        <Button
                          type="text"
                          size="small"
                          danger
                          icon={<DeleteOutlined />}
                          aria-label={t('exams.removeQuestion')}
                          onClick={() => setSection(index, { questionIds: section.questionIds.filter((other) => other !== id) })}
                        />
                      </Space>
                    </li>
                  );
                })}
              </ol>
            )}
            <Button icon={<PlusOutlined />} onClick={() => setPicking(section.key)}>
              {t('exams.addQuestions')}
            </Button>

            <Typography.Title level={5} className="paper-subtitle">
              {t('exams.drawRules', { count: section.draw.length })}
            </Typography.Title>
            <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
              {t('exams.drawHint')}
            </Typography.Paragraph>
            {section.draw.map((rule, ruleIndex) => {
              const count = sectionRules[ruleIndex];
              const error = errors.get(`s${index}.r${ruleIndex}`);
              return (
                <div key={rule.key} className={`draw-rule${error !== undefined || count?.short ? ' draw-rule--short' : ''}`} data-testid={`rule-${index + 1}-${ruleIndex + 1}`}>
                  <Flex gap={8} wrap align="flex-end">
                    <div className="paper-field draw-rule__tags">
                      <span>{t('exams.ruleTags')}</span>
                      <Select
                        mode="multiple"
                        value={rule.tags}
                        maxCount={10}
                        placeholder={t('exams.anyTag')}
                        aria-label={t('exams.ruleTagsOf', { n: ruleIndex + 1 })}
                        loading={tags.isFetching}
                        options={(tags.data ?? []).map((tag) => ({ value: tag.name, label: `${tag.name} (${tag.questionCount})` }))}
                        onChange={(value: string[]) => setRule(index, ruleIndex, { tags: value })}
                        style={{ width: '100%' }}
                      />
                    </div>
                    <div className="paper-field">
                      <span>{t('exams.ruleType')}</span>
                      <Select
                        value={rule.type}
                        aria-label={t('exams.ruleTypeOf', { n: ruleIndex + 1 })}
                        options={QUESTION_TYPES.map((type) => ({ value: type, label: t(`exams.type.${type}`) }))}
                        onChange={(type) => setRule(index, ruleIndex, { type })}
                        style={{ width: 110 }}
                      />
                    </div>
                    <div className="paper-field">
                      <span>{t('exams.ruleDifficulty')}</span>
                      <Select<number>
                        value={rule.difficulty ?? 0}
                        aria-label={t('exams.ruleDifficultyOf', { n: ruleIndex + 1 })}
                        options={[{ value: 0, label: t('exams.anyDifficulty') }, ...DIFFICULTIES.map((difficulty) => ({ value: difficulty, label: String(difficulty) }))]}
                        onChange={(difficulty) => setRule(index, ruleIndex, { difficulty: difficulty === 0 ? null : difficulty })}
                        style={{ width: 100 }}
                      />
                    </div>
                    <div className="paper-field">
                      <span>{t('exams.ruleCount')}</span>
                      <InputNumber
                        value={rule.count}
                        min={1}
                        max={MAX_DRAW_COUNT}
                        precision={0}
                        aria-label={t('exams.ruleCountOf', { n: ruleIndex + 1 })}
                        onChange={(value) => setRule(index, ruleIndex, { count: value ?? null })}
                        style={{ width: 90 }}
                      />
                    </div>
                    <div className="paper-field">
                      <span>{t('exams.ruleScore')}</span>
                      <InputNumber
                        value={rule.score}
                        min={0.01}
                        max={MAX_QUESTION_SCORE}
                        precision={2}
                        aria-label={t('exams.ruleScoreOf', { n: ruleIndex + 1 })}
                        onChange={(value) => setRule(index, ruleIndex, { score: value ?? null })}
                        style={{ width: 100 }}
                      />
                    </div>
                    <Button
                      type="text"
                      danger
                      icon={<DeleteOutlined />}
                      aria-label={t('exams.removeRuleOf', { n: ruleIndex + 1 })}
                      onClick={() => setSection(index, { draw: section.draw.filter((_rule, at) => at !== ruleIndex) })}
                    />
                  </Flex>
                  <div className="draw-rule__count" aria-live="polite">
                    {count === undefined ? (
                      <Typography.Text type="secondary">{checkable === undefined ? t('exams.countWaiting') : t('exams.counting')}</Typography.Text>
                    ) : (
                      <Typography.Text type={count.short ? 'danger' : 'success'}>
                        {t('exams.ruleAvailable', { available: count.available, matching: count.matching })}
                        {count.short && ` · ${t('exams.ruleShort', { count: rule.count ?? 0 })}`}
                      </Typography.Text>
                    )}
                  </div>
                  <ErrorText text={error} />
                </div>
              );
            })}
            <Button icon={<PlusOutlined />} onClick={() => setSection(index, { draw: [...section.draw, newRule()] })} disabled={section.draw.length >= 20}>
              {t('exams.addRule')}
            </Button>
          </Card>
        );
      })}
      {paper.sections.length === 0 && <Empty description={t('exams.noSections')} />}
      <Button
        type="dashed"
        block
        icon={<PlusOutlined />}
        disabled={paper.sections.length >= MAX_SECTIONS}
        onClick={() => setSections([...paper.sections, newSection(t('exams.sectionDefault', { n: paper.sections.length + 1 }))])}
      >
        {t('exams.addSection')}
      </Button>
      {pickingIndex >= 0 && (
        <QuestionPickerDialog
          excluded={allIds}
          onClose={() => setPicking(undefined)}
          onPick={(picked) => {
            // The paper shows them at once, without asking for each again.
            for (const question of picked) queryClient.setQueryData(questionQuery(question.id).queryKey, question);
            const section = paper.sections[pickingIndex] as SectionDraft;
            setSection(pickingIndex, { questionIds: [...section.questionIds, ...picked.map((question) => question.id).filter((id) => !allIds.includes(id))] });
          }}
        />
      )}
    </div>
  );
}
