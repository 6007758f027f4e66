import { ArrowDownOutlined, ArrowLeftOutlined, ArrowUpOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import type { PaperQuestion } from '@cloud-classroom/shared/exams';
import {
  DEFAULT_BLANK_RULES,
  MULTIPLE_POLICIES,
  QUESTION_TYPES,
  type BlankRules,
  type MultiplePolicy,
  type QuestionType,
} from '@cloud-classroom/shared/question-scoring';
import {
  CHOICE_TYPES,
  DIFFICULTIES,
  MAX_BLANKS,
  MAX_OPTIONS,
  MAX_QUESTION_SCORE,
  MAX_TAGS,
  MIN_OPTIONS,
  OPTION_KEYS,
  optionSchema,
  questionCreateSchema,
  questionShapeIssues,
  type Question,
  type QuestionCreateBody,
  type QuestionShapeIssue,
} from '@cloud-classroom/shared/questions';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Checkbox, Col, Flex, Form, Input, InputNumber, Radio, Rate, Result, Row, Select, Skeleton, Switch, Typography, type FormInstance } from 'antd';
import { useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { LimitedInput } from '../../components/form/limited-input';
import { useFormSubmit } from '../../components/form/use-form-submit';
import { zodRule } from '../../components/list-page/zod-rule';
import { LazyRichTextEditor } from '../../components/rich-text/lazy-rich-text-editor';
import type { UploadedImage } from '../../components/rich-text/rich-text-editor';
import { sanitizeRichText } from '../../components/rich-text/rich-text-view';
import { apiUrl, HttpError } from '../../lib/http-client';
import { useTagsViewStore } from '../tags-view/tags-view-store';
import { ADD_QUESTION_PATH, EDIT_QUESTION_PATH, QUESTIONS_PAGE_PATH } from './question-list-page';
import { createQuestion, questionQuery, questionsKeys, questionTagsQuery, updateQuestion, uploadQuestionImage } from './questions-api';
import { issueText, type QuestionTranslate } from './question-issue-text';
import { useQuestionMessages } from './questions-messages';
import { QuestionView, type QuestionViewResponse } from './site/question-view';
import './question-edit-page.css';


type OptionRow = { text: string; right: boolean };
type BlankRow = { accepted: string[] };

/** The form: every type's parts at once, so a change of type keeps what the others had. */
export type QuestionValues = {
  type: QuestionType;
  stem: string;
  options: OptionRow[];
  judge: 'T' | 'F' | undefined;
  blanks: BlankRow[];
  blankRules: BlankRules;
  reference: string;
  analysis: string;
  difficulty: number;
  tags: string[];
  score: number | null;
  policy: MultiplePolicy;
};

const isChoice = (type: QuestionType) => (CHOICE_TYPES as readonly string[]).includes(type);

/** The form field under which each of the shape rule's fields is shown, by type. */
const answerFieldOf = (type: QuestionType): keyof QuestionValues => (isChoice(type) ? 'options' : type === 'judge' ? 'judge' : type === 'blank' ? 'blanks' : 'reference');

/** The body the server takes, from the form: only the parts of the chosen type. */
export function bodyOf(values: QuestionValues): QuestionCreateBody {
  const { type } = values;
  const choice = isChoice(type);
  let answer: string[] | string[][];
  if (choice) answer = values.options.flatMap((option, index) => (option.right ? [OPTION_KEYS[index] as string] : []));
  else if (type === 'judge') answer = values.judge === undefined ? [] : [values.judge];
  else if (type === 'blank') answer = values.blanks.map((blank) => blank.accepted);
  else answer = values.reference.trim() === '' ? [] : [values.reference];
  return {
    type,
    stem: values.stem,
    options: choice ? values.options.map((option, index) => ({ key: OPTION_KEYS[index] as (typeof OPTION_KEYS)[number], text: option.text.trim() })) : [],
    answer,
    blankRules: type === 'blank' ? values.blankRules : null,
    analysis: values.analysis,
    difficulty: values.difficulty,
    tags: values.tags,
    score: values.score ?? 0,
    policy: type === 'multiple' ? values.policy : null,
  };
}

const emptyOptions = (): OptionRow[] => OPTION_KEYS.slice(0, 4).map(() => ({ text: '', right: false }));

function initialValuesOf(question: Question | undefined, type: QuestionType = 'single'): QuestionValues {
  const empty: QuestionValues = {
    type,
    stem: '',
    options: emptyOptions(),
    judge: undefined,
    blanks: [{ accepted: [] }],
    blankRules: DEFAULT_BLANK_RULES,
    reference: '',
    analysis: '',
    difficulty: 3,
    tags: [],
    score: 1,
    policy: 'all',
  };
  if (question === undefined) return empty;
  const flat = question.answer.filter((item): item is string => typeof item === 'string');
  const lists = question.answer.filter((item): item is string[] => Array.isArray(item));
  return {
    ...empty,
    type: question.type,
    stem: question.stem,
    options: isChoice(question.type) ? question.options.map((option) => ({ text: option.text, right: flat.includes(option.key) })) : empty.options,
    judge: question.type === 'judge' && (flat[0] === 'T' || flat[0] === 'F') ? flat[0] : undefined,
    blanks: question.type === 'blank' ? lists.map((accepted) => ({ accepted })) : empty.blanks,
    blankRules: question.blankRules ?? DEFAULT_BLANK_RULES,
    reference: question.type === 'short' ? (flat[0] ?? '') : '',
    analysis: question.analysis,
    difficulty: question.difficulty,
    tags: question.tags,
    score: question.score,
    policy: question.policy ?? 'all',
  };
}

/** What the learner's view shows of the form: sanitised as the server would store it, with the key. */
function previewOf(values: QuestionValues): PaperQuestion {
  const body = bodyOf(values);
  return {
    id: 0,
    type: body.type,
    stem: sanitizeRichText(body.stem),
    options: body.options ?? [],
    blanks: body.type === 'blank' ? values.blanks.length : 0,
    score: typeof body.score === 'number' && body.score > 0 ? body.score : 0,
    policy: body.type === 'multiple' ? values.policy : null,
    answer: body.answer,
    blankRules: body.type === 'blank' ? values.blankRules : null,
    analysis: sanitizeRichText(body.analysis ?? ''),
  };
}

/** A rule showing the shape rule's issues of one of its fields under a form item. */
function shapeRule(form: FormInstance<QuestionValues>, fields: readonly QuestionShapeIssue['field'][], t: QuestionTranslate) {
  return {
    validator: async () => {
      const body = bodyOf(form.getFieldsValue(true) as QuestionValues);
      const issue = questionShapeIssues({ type: body.type, stem: body.stem, options: body.options ?? [], answer: body.answer }).find((candidate) =>
        fields.includes(candidate.field),
      );
      if (issue !== undefined) throw new Error(issueText(issue, t));
    },
  };
}

const uploadImage = async (file: File): Promise<UploadedImage> => {
  const image = await uploadQuestionImage(file, file.name);
  return { src: apiUrl(image.url), alt: file.name.replace(/\.[^.]+$/, '') };
};

/** The knowledge points: chosen from the existing ones, or new ones typed in. */
function TagsSelect({ value, onChange, id, t }: { value?: string[]; onChange?: (tags: string[]) => void; id?: string; t: QuestionTranslate }) {
  const [search, setSearch] = useState('');
  const tags = useQuery(questionTagsQuery(search.trim()));
  return (
    <Select
      id={id}
      mode="tags"
      value={value}
      onChange={(next: string[]) => onChange?.([...new Set(next.map((tag) => tag.trim()).filter((tag) => tag !== ''))])}
      onSearch={setSearch}
      maxCount={MAX_TAGS}
      tokenSeparators={[',', '，']}
      placeholder={t('questions.tagsPlaceholder')}
      options={(tags.data ?? []).map((tag) => ({ value: tag.name, label: `${tag.name} (${tag.questionCount})` }))}
      optionLabelProp="value"
      loading={tags.isFetching}
    />
  );
}

/** One blank's accepted answers, typed in as tags (Enter or `|` adds one). */
function AcceptedInput({ value, onChange, id, label, placeholder }: { value?: string[]; onChange?: (answers: string[]) => void; id?: string; label: string; placeholder: string }) {
  return (
    <Select
      id={id}
      mode="tags"
      aria-label={label}
      value={value}
      open={false}
      suffixIcon={null}
      tokenSeparators={['|']}
      placeholder={placeholder}
      onChange={(next: string[]) => onChange?.([...new Set(next.filter((text) => text.trim() !== ''))])}
    />
  );
}

function OptionsEditor({ form, type, t }: { form: FormInstance<QuestionValues>; type: 'single' | 'multiple'; t: QuestionTranslate }) {
  // Shown from the watch; changed from the form's own value, which the watch follows a render late.
  const current = () => (form.getFieldValue('options') as OptionRow[] | undefined) ?? [];
  const options = (Form.useWatch('options', { form, preserve: true }) as OptionRow[] | undefined) ?? current();
  const setOptions = (next: OptionRow[]) => {
    form.setFieldValue('options', next);
    void form.validateFields(['options']).catch(() => undefined);
  };
  const markRight = (index: number, right: boolean) =>
    setOptions(current().map((option, at) => (at === index ? { ...option, right } : type === 'single' && right ? { ...option, right: false } : option)));
  const move = (index: number, by: -1 | 1) => {
    const next = [...current()];
    const [moved] = next.splice(index, 1);
    if (moved !== undefined) next.splice(index + by, 0, moved);
    setOptions(next);
  };
  return (
    <Form.List name="options" rules={[shapeRule(form, ['options', 'answer'], t)]}>
      {(fields, { add, remove }, { errors }) => (
        <Form.Item label={t('questions.options')} required extra={t(`questions.optionsHint.${type}`)} className="question-edit__options">
          <Flex vertical gap={8}>
            {fields.map((field, index) => {
              const key = OPTION_KEYS[index] ?? '?';
              const right = options[index]?.right === true;
              return (
                <Flex key={field.key} gap={8} align="center" className="question-edit__option">
                  <span className="question-edit__option-key" aria-hidden="true">
                    {key}
                  </span>
                  <Form.Item name={[field.name, 'text']} noStyle>
                    <LimitedInput schema={optionSchema.shape.text} aria-label={t('questions.optionText', { key })} style={{ flex: 1, minWidth: 0 }} />
                  </Form.Item>
                  {type === 'single' ? (
                    <Radio checked={right} aria-label={t('questions.rightOf', { key })} onChange={(event) => markRight(index, event.target.checked)}>
                      <span className="question-edit__right-label">{t('questions.right')}</span>
                    </Radio>
                  ) : (
                    <Checkbox checked={right} aria-label={t('questions.rightOf', { key })} onChange={(event) => markRight(index, event.target.checked)}>
                      <span className="question-edit__right-label">{t('questions.right')}</span>
                    </Checkbox>
                  )}
                  <Flex gap={0} className="question-edit__option-tools">
                    <Button type="text" size="small" icon={<ArrowUpOutlined />} aria-label={t('questions.moveUp', { key })} disabled={index === 0} onClick={() => move(index, -1)} />
                    <Button
                      type="text"
                      size="small"
                      icon={<ArrowDownOutlined />}
                      aria-label={t('questions.moveDown', { key })}
                      disabled={index === fields.length - 1}
                      onClick={() => move(index, 1)}
                    />
                    <Button
                      type="text"
                      size="small"
                      danger
                      icon={<DeleteOutlined />}
                      aria-label={t('questions.removeOption', { key })}
                      disabled={fields.length <= MIN_OPTIONS}
                      onClick={() => remove(index)}
                    />
                  </Flex>
                </Flex>
              );
            })}
            <Button type="dashed" icon={<PlusOutlined />} disabled={fields.length >= MAX_OPTIONS} onClick={() => add({ text: '', right: false })} style={{ alignSelf: 'flex-start' }}>
              {t('questions.addOption')}
            </Button>
            <Form.ErrorList errors={errors} />
          </Flex>
        </Form.Item>
      )}
    </Form.List>
  );
}

function BlanksEditor({ form, t }: { form: FormInstance<QuestionValues>; t: QuestionTranslate }) {
  return (
    <>
      <Form.List name="blanks" rules={[shapeRule(form, ['answer'], t)]}>
        {(fields, { add, remove }, { errors }) => (
          <Form.Item label={t('questions.blanks')} required>
            <Flex vertical gap={8}>
              {fields.map((field, index) => (
                <Flex key={field.key} gap={8} align="center">
                  <span className="question-edit__blank-label">{t('questions.blankOf', { number: index + 1 })}</span>
                  <Form.Item name={[field.name, 'accepted']} noStyle>
                    <AcceptedInput label={t('questions.blankOf', { number: index + 1 })} placeholder={t('questions.blankPlaceholder')} />
                  </Form.Item>
                  <Button
                    type="text"
                    size="small"
                    danger
                    icon={<DeleteOutlined />}
                    aria-label={t('questions.removeBlank', { number: index + 1 })}
                    disabled={fields.length <= 1}
                    onClick={() => remove(index)}
                  />
                </Flex>
              ))}
              <Button type="dashed" icon={<PlusOutlined />} disabled={fields.length >= MAX_BLANKS} onClick={() => add({ accepted: [] })} style={{ alignSelf: 'flex-start' }}>
                {t('questions.addBlank')}
              </Button>
              <Form.ErrorList errors={errors} />
            </Flex>
          </Form.Item>
        )}
      </Form.List>
      <Form.Item label={t('questions.rules')}>
        <div className="question-edit__rules">
          {(['ignoreCase', 'ignoreWidth', 'trimSpaces', 'ignoreInnerSpaces', 'anyOrder'] as const).map((rule) => (
            <Flex key={rule} gap={8} align="flex-start">
              <Form.Item name={['blankRules', rule]} valuePropName="checked" noStyle>
                <Switch size="small" id={`question-rule-${rule}`} aria-describedby={`question-rule-${rule}-hint`} style={{ marginTop: 3 }} />
              </Form.Item>
              <label htmlFor={`question-rule-${rule}`}>
                {t(`questions.rule.${rule}`)}
                <Typography.Text type="secondary" id={`question-rule-${rule}-hint`} className="question-edit__rule-hint">
                  {t(`questions.rule.${rule}Hint`)}
                </Typography.Text>
              </label>
            </Flex>
          ))}
        </div>
      </Form.Item>
    </>
  );
}

/** The preview: the learner's view of the form, answerable so staff can see the score it gives. */
function Preview({ values, t }: { values: QuestionValues; t: QuestionTranslate }) {
  const question = previewOf(values);
  // A try belongs to one type of question: another type starts it over.
  const [tried, setTried] = useState<{ type: QuestionType; response: QuestionViewResponse }>({ type: values.type, response: null });
  const response = tried.type === values.type ? tried.response : null;
  return (
    <Card size="small" title={t('questions.preview')} className="question-edit__preview">
      <Typography.Paragraph type="secondary" style={{ marginBottom: 12 }}>
        {t('questions.previewHint')}
      </Typography.Paragraph>
      <QuestionView question={question} index={1} response={response} onChange={(next) => setTried({ type: values.type, response: next })} showKey />
    </Card>
  );
}

function QuestionForm({ question, t }: { question?: Question; t: QuestionTranslate }) {
  const [form] = Form.useForm<QuestionValues>();
  const navigate = useNavigate();
  const location = useLocation();
  const queryClient = useQueryClient();
  const [initialValues] = useState(() => initialValuesOf(question));
  const watched = Form.useWatch([], { form, preserve: true }) as QuestionValues | undefined;
  // The type decides which parts show: kept as state, so they change in the same render as the choice.
  const [type, setType] = useState(initialValues.type);
  const values: QuestionValues = { ...initialValues, ...watched, type };
  const [another, setAnother] = useState(false);

  const { submit, submitting } = useFormSubmit<QuestionValues, unknown>({
    form,
    fields: { answer: answerFieldOf(type) },
    mutationFn: (submitted, request) => {
      const body = bodyOf(submitted);
      return question === undefined ? createQuestion(body, request) : updateQuestion({ id: question.id, ...body }, request);
    },
    successMessage: t('questions.saved'),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: questionsKeys.all });
      if (another) {
        // The next question is often like this one: its type, difficulty, knowledge points and score stay.
        const kept = form.getFieldsValue(true) as QuestionValues;
        form.resetFields();
        form.setFieldsValue({ ...initialValuesOf(undefined, kept.type), difficulty: kept.difficulty, tags: kept.tags, score: kept.score, policy: kept.policy });
        window.scrollTo(0, 0);
        return;
      }
      useTagsViewStore.getState().closeView(location.pathname);
      void navigate(QUESTIONS_PAGE_PATH);
    },
  });

  const shape = questionCreateSchema.in.shape;

  return (
    <Row gutter={[16, 16]} className="question-edit">
      <Col xs={24} lg={14}>
        <Card size="small" title={question === undefined ? t('questions.addTitle') : t('questions.editTitle', { id: question.id })}>
          <Form<QuestionValues>
            form={form}
            layout="vertical"
            initialValues={initialValues}
            // Every part, also the options' right marks, which no field holds.
            onFinish={() => void submit(form.getFieldsValue(true) as QuestionValues)}
            onValuesChange={(changed: Partial<QuestionValues>) => {
              // A list's error (the options, the blanks) clears as soon as the list is mended.
              for (const field of ['options', 'blanks', 'judge', 'reference'] as const) {
                if (field in changed && form.getFieldError(field).length > 0) void form.validateFields([field]).catch(() => undefined);
              }
              if (changed.type !== undefined) setType(changed.type);
              // Single choice has one right option: from multiple, the first right one stays.
              if (changed.type === 'single') {
                const options = form.getFieldValue('options') as OptionRow[];
                const first = options.findIndex((option) => option.right);
                form.setFieldValue('options', options.map((option, index) => ({ ...option, right: index === first })));
              }
            }}
          >
            <Form.Item name="type" label={t('questions.type')} extra={t('questions.typeHint')} required>
              <Radio.Group optionType="button" options={QUESTION_TYPES.map((value) => ({ value, label: t(`question.type.${value}`) }))} className="question-edit__types" />
            </Form.Item>
            <Form.Item
              name="stem"
              label={t('questions.stem')}
              required
              extra={type === 'blank' ? t('questions.blankStemHint') : undefined}
              rules={[zodRule(shape.stem), shapeRule(form, ['stem'], t)]}
            >
              <LazyRichTextEditor aria-label={t('questions.stem')} uploadImage={uploadImage} />
            </Form.Item>
            {(type === 'single' || type === 'multiple') && <OptionsEditor form={form} type={type} t={t} />}
            {type === 'judge' && (
              <Form.Item name="judge" label={t('questions.judgeAnswer')} required rules={[shapeRule(form, ['answer'], t)]}>
                <Radio.Group
                  options={[
                    { value: 'T', label: t('question.judge.T') },
                    { value: 'F', label: t('question.judge.F') },
                  ]}
                />
              </Form.Item>
            )}
            {type === 'blank' && <BlanksEditor form={form} t={t} />}
            {type === 'short' && (
              <Form.Item name="reference" label={t('questions.reference')} extra={t('questions.referenceHint')} rules={[shapeRule(form, ['answer'], t)]}>
                <Input.TextArea autoSize={{ minRows: 3, maxRows: 12 }} />
              </Form.Item>
            )}
            {type === 'multiple' && (
              <Form.Item name="policy" label={t('questions.policy')}>
                <Radio.Group className="question-edit__policies">
                  {MULTIPLE_POLICIES.map((policy) => (
                    <Radio key={policy} value={policy}>
                      {t(`questions.policy.${policy}`)}
                      <Typography.Text type="secondary" className="question-edit__policy-hint">
                        {t(`questions.policy.${policy}Hint`)}
                      </Typography.Text>
                    </Radio>
                  ))}
                </Radio.Group>
              </Form.Item>
            )}
            <Form.Item name="analysis" label={t('questions.analysis')} extra={t('questions.analysisHint')} rules={[zodRule(shape.analysis)]}>
              <LazyRichTextEditor aria-label={t('questions.analysis')} uploadImage={uploadImage} />
            </Form.Item>
            <Flex gap={24} wrap>
              <Form.Item name="difficulty" label={t('questions.difficulty')} required>
                <Rate count={DIFFICULTIES.length} allowClear={false} tooltips={DIFFICULTIES.map((level) => t(`questions.difficulty.${level}`))} />
              </Form.Item>
              <Form.Item name="score" label={t('questions.score')} rules={[zodRule(shape.score.unwrap())]}>
                <InputNumber min={0.01} max={MAX_QUESTION_SCORE} step={1} precision={2} style={{ width: 120 }} />
              </Form.Item>
            </Flex>
            <Form.Item name="tags" label={t('questions.tags')} extra={t('questions.tagsHint')}>
              <TagsSelect t={t} />
            </Form.Item>
            <Flex gap={8} wrap>
              <Button type="primary" htmlType="submit" loading={submitting && !another} onClick={() => setAnother(false)}>
                {t('questions.save')}
              </Button>
              {question === undefined && (
                <Button htmlType="submit" loading={submitting && another} onClick={() => setAnother(true)}>
                  {t('questions.saveAndAdd')}
                </Button>
              )}
              <Button icon={<ArrowLeftOutlined />} onClick={() => void navigate(QUESTIONS_PAGE_PATH)}>
                {t('questions.back')}
              </Button>
            </Flex>
          </Form>
        </Card>
      </Col>
      <Col xs={24} lg={10}>
        <div className="question-edit__preview-column">
          <Preview values={values} t={t} />
        </div>
      </Col>
    </Row>
  );
}

function Missing({ t }: { t: QuestionTranslate }) {
  const navigate = useNavigate();
  return (
    <Result
      status="warning"
      title={t('questions.notFound')}
      extra={
        <Button type="primary" onClick={() => void navigate(QUESTIONS_PAGE_PATH)}>
          {t('questions.back')}
        </Button>
      }
    />
  );
}

function EditQuestion({ id, t }: { id: number; t: QuestionTranslate }) {
  const question = useQuery(questionQuery(id));
  if (question.error instanceof HttpError && question.error.status === 404) return <Missing t={t} />;
  if (question.data === undefined) return <Skeleton active />;
  return <QuestionForm question={question.data} t={t} />;
}

function positiveId(value: string | null): number | undefined {
  const id = Number(value);
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

/**
 * /edu/add-question and /edu/edit-question?id=: one question of any type, with the learner's
 * view of it beside the form (below it on a phone), answerable to try the scoring.
 */
export default function QuestionEditPage() {
  const t = useQuestionMessages();
  const location = useLocation();
  const [params] = useSearchParams();
  if (location.pathname === ADD_QUESTION_PATH) return <QuestionForm key="add" t={t} />;
  const id = positiveId(params.get('id'));
  // The page stays mounted from one question to the next: each address gets a fresh form.
  if (location.pathname === EDIT_QUESTION_PATH && id !== undefined) return <EditQuestion key={`id-${id}`} id={id} t={t} />;
  return <Missing t={t} />;
}

