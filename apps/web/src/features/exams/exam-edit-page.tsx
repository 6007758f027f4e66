import { ArrowLeftOutlined, EyeOutlined, UsergroupAddOutlined } from '@ant-design/icons';
import {
  EXAM_COUNTS,
  EXAM_REVIEWS,
  EXAM_STATUSES,
  MAX_ATTEMPTS,
  MAX_LIMIT_MINUTES,
  examCreateSchema,
  paperSchema,
  type Exam,
  type ExamCounts,
  type ExamCreateBody,
  type ExamReview,
  type ExamStatus,
} from '@cloud-classroom/shared/exams';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Col, DatePicker, Flex, Form, InputNumber, Radio, Result, Row, Select, Skeleton, Space, Switch, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { LimitedInput, LimitedTextArea } from '../../components/form/limited-input';
import { useFormSubmit } from '../../components/form/use-form-submit';
import { zodRule } from '../../components/list-page/zod-rule';
import { HttpError } from '../../lib/http-client';
import { courseTermsQuery } from '../applicants/applicants-api';
import { dueAtOf } from '../applicants/enrol-dialog';
import { ASSIGN_EXAM_PATH, EDIT_EXAM_PATH, EXAMS_LIST_PATH, PREVIEW_EXAM_PATH } from './exam-paths';
import { courseOptionsQuery, createExam, examQuery, examsKeys, updateExam } from './exams-api';
import { useExamMessages, type ExamTranslate } from './exams-messages';
import { PaperBuilder } from './paper-builder';
import { newSection, paperBodyOf, paperDraftOf, paperRefusalOf, placeKey, placeOfPath, type PaperDraft } from './paper-draft';
import { useExamIdParam } from './exam-id-param';
import './exams.css';


export type ExamValues = {
  title: string;
  description: string;
  courseId: number | null;
  termId: number | null;
  status: ExamStatus;
  openAt: Dayjs | null;
  closeAt: Dayjs | null;
  limitMinutes: number | null;
  attempts: number;
  counts: ExamCounts;
  passScore: number;
  shuffleQuestions: boolean;
  shuffleOptions: boolean;
  review: ExamReview;
  paper: PaperDraft;
};

const shape = examCreateSchema.shape;

function initialValuesOf(exam: Exam | undefined, t: ExamTranslate): ExamValues {
  if (exam === undefined) {
    return {
      title: '',
      description: '',
      courseId: null,
      termId: null,
      status: 'draft',
      openAt: null,
      closeAt: null,
      limitMinutes: 60,
      attempts: 1,
      counts: 'best',
      passScore: 60,
      shuffleQuestions: false,
      shuffleOptions: false,
      review: 'after_submit',
      paper: { sections: [newSection(t('exams.sectionDefault', { n: 1 }))] },
    };
  }
  return {
    title: exam.title,
    description: exam.description,
    courseId: exam.courseId,
    termId: exam.termId,
    status: exam.status,
    openAt: exam.openAt === null ? null : dayjs(exam.openAt),
    closeAt: exam.closeAt === null ? null : dayjs(exam.closeAt),
    limitMinutes: exam.limitMinutes,
    attempts: exam.attempts,
    counts: exam.counts,
    passScore: exam.passScore,
    shuffleQuestions: exam.shuffleQuestions,
    shuffleOptions: exam.shuffleOptions,
    review: exam.review,
    paper: paperDraftOf(exam.paper),
  };
}

/** What `POST` / `PUT api/exams` take for the form's values. */
export function examBodyOf(values: ExamValues, exam?: Exam): ExamCreateBody {
  // The pickers show minutes: an untouched time is sent as it was, seconds and all.
  const kept = (at: Dayjs | null | undefined, was: string | null | undefined) => (at && was && at.isSame(dayjs(was), 'minute') ? was : dueAtOf(at));
  return {
    title: values.title.trim(),
    description: values.description?.trim() ?? '',
    courseId: values.courseId ?? null,
    termId: values.termId ?? null,
    status: values.status,
    paper: paperBodyOf(values.paper),
    openAt: kept(values.openAt, exam?.openAt),
    closeAt: kept(values.closeAt, exam?.closeAt),
    limitMinutes: values.limitMinutes ?? null,
    attempts: values.attempts,
    counts: values.counts,
    passScore: values.passScore,
    shuffleQuestions: values.shuffleQuestions,
    shuffleOptions: values.shuffleOptions,
    review: values.review,
  };
}

/** The paper's problems zod finds before sending, by place; empty when none. */
function paperIssuesOf(paper: PaperDraft): Map<string, string> {
  const parsed = paperSchema.safeParse(paperBodyOf(paper));
  const issues = new Map<string, string>();
  if (parsed.success) return issues;
  for (const issue of parsed.error.issues) {
    const key = placeKey(placeOfPath(issue.path.filter((part): part is string | number => typeof part !== 'symbol')));
    if (!issues.has(key)) issues.set(key, issue.message);
  }
  return issues;
}

function ExamForm({ exam }: { exam?: Exam }) {
  const t = useExamMessages();
  const [form] = Form.useForm<ExamValues>();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [paperErrors, setPaperErrors] = useState<ReadonlyMap<string, string>>(new Map());
  const initialValues = initialValuesOf(exam, t);
  const courseId = Form.useWatch('courseId', form) ?? initialValues.courseId;
  const attempts = Form.useWatch('attempts', form) ?? initialValues.attempts;
  const courses = useQuery(courseOptionsQuery());
  const terms = useQuery({ ...courseTermsQuery(courseId ?? 0), enabled: courseId !== null });

  const { submit, submitting } = useFormSubmit<ExamValues, number>({
    form,
    mutationFn: async (values, request) => {
      const body = examBodyOf(values, exam);
      try {
        if (exam === undefined) return (await createExam(body, request)).id;
        await updateExam({ ...body, id: exam.id }, request);
        return exam.id;
      } catch (error) {
        // A refusal about the paper (`paper.sections.1.draw.0: …`) is shown at its row; the form's
        // hidden `paper` field takes the message, so no notification repeats it.
        const refusal = error instanceof HttpError && error.status === 400 ? paperRefusalOf(error.message) : undefined;
        if (refusal !== undefined) setPaperErrors(new Map([[refusal.key, refusal.text]]));
        throw error;
      }
    },
    successMessage: t('exams.saved'),
    onSuccess: async (id) => {
      await queryClient.invalidateQueries({ queryKey: examsKeys.exams });
      // A new exam gets its own address: a reload finds it, and preview and assign open for it.
      if (exam === undefined) void navigate(`${EDIT_EXAM_PATH}?id=${id}`, { replace: true });
    },
  });

  const courseOptions = (courses.data ?? []).map((course) => ({ value: course.id, label: course.title }));
  if (exam !== undefined && exam.courseId !== null && !courseOptions.some((option) => option.value === exam.courseId)) {
    courseOptions.unshift({ value: exam.courseId, label: exam.courseTitle ?? `#${exam.courseId}` });
  }
  const termOptions = (terms.data ?? []).map((term) => ({ value: term.id, label: term.name }));
  if (exam !== undefined && exam.termId !== null && courseId === exam.courseId && !termOptions.some((option) => option.value === exam.termId)) {
    termOptions.unshift({ value: exam.termId, label: exam.termName ?? `#${exam.termId}` });
  }

  return (
    <Form<ExamValues>
      form={form}
      layout="vertical"
      className="exam-edit"
      initialValues={initialValues}
      onFinish={(values) => {
        const issues = paperIssuesOf(values.paper);
        setPaperErrors(issues);
        if (issues.size > 0) return;
        void submit(values).then((accepted) => {
          // The paper's refusal is shown at its row; left on the hidden field, antd would colour every input of the paper red.
          if (!accepted) form.setFields([{ name: 'paper', errors: [] }]);
        });
      }}
      onFinishFailed={({ values }) => setPaperErrors(paperIssuesOf(values.paper))}
      onValuesChange={(changed: Partial<ExamValues>) => {
        if (changed.paper !== undefined && paperErrors.size > 0) setPaperErrors(new Map());
        // A term belongs to one course.
        if ('courseId' in changed) form.setFieldValue('termId', null);
      }}
    >
      <Flex justify="space-between" align="center" wrap gap={8} className="exam-edit__bar">
        <Typography.Title level={4} style={{ margin: 0 }}>
          {exam === undefined ? t('exams.addTitle') : t('exams.editTitle', { title: exam.title })}
        </Typography.Title>
        <Space wrap>
          <Button type="primary" htmlType="submit" loading={submitting}>
            {t('exams.save')}
          </Button>
          {exam !== undefined && (
            <>
              <Button icon={<EyeOutlined />} onClick={() => void navigate(`${PREVIEW_EXAM_PATH}?id=${exam.id}`)}>
                {t('exams.preview')}
              </Button>
              <Button icon={<UsergroupAddOutlined />} onClick={() => void navigate(`${ASSIGN_EXAM_PATH}?id=${exam.id}`)}>
                {t('exams.assign')}
              </Button>
            </>
          )}
          <Button icon={<ArrowLeftOutlined />} onClick={() => void navigate(EXAMS_LIST_PATH)}>
            {t('exams.back')}
          </Button>
        </Space>
      </Flex>
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={9}>
          <Card size="small" title={t('exams.settings')}>
            <Form.Item name="title" label={t('exams.title')} rules={[zodRule(shape.title)]}>
              <LimitedInput schema={shape.title} />
            </Form.Item>
            <Form.Item name="description" label={t('exams.description')} extra={t('exams.descriptionHint')} rules={[zodRule(shape.description)]}>
              <LimitedTextArea schema={shape.description} autoSize={{ minRows: 2, maxRows: 6 }} />
            </Form.Item>
            <Form.Item name="courseId" label={t('exams.course')} extra={t('exams.courseHint')}>
              <Select allowClear showSearch={{ optionFilterProp: 'label' }} placeholder={t('exams.noCourse')} loading={courses.isFetching} options={courseOptions} />
            </Form.Item>
            <Form.Item name="termId" label={t('exams.term')}>
              <Select allowClear placeholder={t('exams.anyTerm')} disabled={courseId === null} loading={terms.isFetching} options={termOptions} />
            </Form.Item>
            <Form.Item name="status" label={t('exams.status')} extra={t('exams.statusHint')}>
              <Radio.Group optionType="button" options={EXAM_STATUSES.map((value) => ({ value, label: t(`exams.status.${value}`) }))} />
            </Form.Item>
            <Flex gap={12} wrap>
              <Form.Item name="openAt" label={t('exams.openAt')} extra={t('exams.openAtHint')} className="exam-edit__time">
                <DatePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" style={{ width: '100%' }} />
              </Form.Item>
              <Form.Item name="closeAt" label={t('exams.closeAt')} extra={t('exams.closeAtHint')} className="exam-edit__time">
                <DatePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" style={{ width: '100%' }} />
              </Form.Item>
            </Flex>
            <Flex gap={12} wrap>
              <Form.Item name="limitMinutes" label={t('exams.limitMinutes')} extra={t('exams.limitHint')} rules={[zodRule(shape.limitMinutes)]}>
                <InputNumber min={1} max={MAX_LIMIT_MINUTES} precision={0} placeholder={t('exams.noLimit')} suffix={t('exams.minutes')} style={{ width: 150 }} />
              </Form.Item>
              <Form.Item name="attempts" label={t('exams.attempts')} rules={[zodRule(shape.attempts)]}>
                <InputNumber min={1} max={MAX_ATTEMPTS} precision={0} style={{ width: 110 }} />
              </Form.Item>
              <Form.Item name="passScore" label={t('exams.passScore')} extra={t('exams.passScoreHint')} rules={[zodRule(shape.passScore)]}>
                <InputNumber min={0} precision={2} style={{ width: 120 }} />
              </Form.Item>
            </Flex>
            <Form.Item name="counts" label={t('exams.counts')} extra={attempts > 1 ? undefined : t('exams.countsOneAttempt')}>
              <Radio.Group optionType="button" disabled={attempts <= 1} options={EXAM_COUNTS.map((value) => ({ value, label: t(`exams.counts.${value}`) }))} />
            </Form.Item>
            <Flex gap={24} wrap>
              <Form.Item name="shuffleQuestions" label={t('exams.shuffleQuestions')} extra={t('exams.shuffleQuestionsHint')} valuePropName="checked">
                <Switch />
              </Form.Item>
              <Form.Item name="shuffleOptions" label={t('exams.shuffleOptions')} extra={t('exams.shuffleOptionsHint')} valuePropName="checked">
                <Switch />
              </Form.Item>
            </Flex>
            <Form.Item name="review" label={t('exams.review')}>
              <Radio.Group className="exam-review">
                {EXAM_REVIEWS.map((value) => (
                  <Radio key={value} value={value}>
                    <span>{t(`exams.review.${value}`)}</span>
                    <Typography.Text type="secondary" className="exam-review__hint">
                      {t(`exams.reviewHint.${value}`)}
                    </Typography.Text>
                  </Radio>
                ))}
              </Radio.Group>
            </Form.Item>
          </Card>
        </Col>
        <Col xs={24} xl={15}>
          <Card size="small" title={t('exams.paper')}>
            <Form.Item name="paper" noStyle>
              <PaperBuilder errors={paperErrors} />
            </Form.Item>
          </Card>
        </Col>
      </Row>
    </Form>
  );
}

function Missing({ text }: { text: string }) {
  const t = useExamMessages();
  const navigate = useNavigate();
  return (
    <Result
      status="warning"
      title={text}
      extra={
        <Button type="primary" onClick={() => void navigate(EXAMS_LIST_PATH)}>
          {t('exams.back')}
        </Button>
      }
    />
  );
}

function EditExam({ id }: { id: number }) {
  const t = useExamMessages();
  const exam = useQuery(examQuery(id));
  if (exam.error instanceof HttpError && exam.error.status === 404) return <Missing text={t('exams.notFound')} />;
  if (exam.error !== null && exam.data === undefined) return <Missing text={t('exams.notLoaded')} />;
  if (exam.data === undefined) return <Skeleton active />;
  return <ExamForm exam={exam.data} />;
}

/**
 * /edu/edit-exam: `?id=<exam>` edits an exam, no id adds one. Its settings (window, limit,
 * attempts, pass score, shuffling, review) beside the paper builder. It reads the exam from the
 * API, so a reload keeps it.
 */
export default function ExamEditPage() {
  const id = useExamIdParam();
  // The page stays mounted from one exam to the next: each address gets a fresh form.
  if (id !== undefined) return <EditExam key={`id-${id}`} id={id} />;
  return <ExamForm key="new" />;
}
