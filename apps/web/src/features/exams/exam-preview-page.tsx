import { ArrowLeftOutlined, EditOutlined, ReloadOutlined } from '@ant-design/icons';
import type { ExamPreview } from '@cloud-classroom/shared/exams';
import type { PermissionCheck } from '@cloud-classroom/shared/permission';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Flex, Result, Skeleton, Space, Switch, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Permission } from '../../components/permission';
import { HttpError } from '../../lib/http-client';
import { QuestionView, type QuestionViewResponse } from '../questions/site/question-view';
import { EDIT_EXAM_PATH, EXAMS_LIST_PATH } from './exam-paths';
import { examPreviewQuery } from './exams-api';
import { useExamMessages } from './exams-messages';
import { NoExamChosen, useExamIdParam } from './exam-id-param';
import './exams.css';

const EDIT: readonly PermissionCheck[] = ['admin', 'exam:edit'];

const sum = (scores: readonly number[]) => Math.round(scores.reduce((total, score) => total + score * 100, 0)) / 100;

/**
 * The paper drawn once, as a learner gets it: its sections and their questions numbered through
 * the paper, answerable, with the key and analysis for staff (a switch hides them).
 */
function PreviewPaper({ preview, showKey }: { preview: ExamPreview; showKey: boolean }) {
  const t = useExamMessages();
  const [responses, setResponses] = useState<ReadonlyMap<string, QuestionViewResponse>>(new Map());
  // Questions are numbered through the paper: each section starts after the ones before it.
  const firstNumbers = preview.sections.map((_section, index) => preview.sections.slice(0, index).reduce((count, before) => count + before.questions.length, 1));
  return (
    <div className="exam-preview__paper">
      {preview.sections.map((section, sectionIndex) => (
        <section key={`${sectionIndex}-${section.title}`} className="exam-preview__section" aria-label={section.title}>
          <Flex justify="space-between" align="baseline" wrap gap={8} className="exam-preview__section-head">
            <Typography.Title level={5} style={{ margin: 0 }}>
              {section.title}
            </Typography.Title>
            <Typography.Text type="secondary">
              {t('preview.questions', { count: section.questions.length })} · {t('preview.sectionScore', { score: sum(section.questions.map((question) => question.score)) })}
            </Typography.Text>
          </Flex>
          {section.questions.map((question, at) => {
            const key = `${sectionIndex}-${question.id}`;
            return (
              <QuestionView
                key={key}
                question={question}
                index={(firstNumbers[sectionIndex] ?? 1) + at}
                response={responses.get(key) ?? null}
                onChange={(response) => setResponses((current) => new Map(current).set(key, response))}
                showKey={showKey}
              />
            );
          })}
        </section>
      ))}
    </div>
  );
}

function Preview({ examId }: { examId: number }) {
  const t = useExamMessages();
  const navigate = useNavigate();
  const preview = useQuery(examPreviewQuery(examId));
  const [showKey, setShowKey] = useState(true);

  if (preview.error instanceof HttpError && preview.error.status === 404) {
    return (
      <Result
        status="warning"
        title={t('exams.notFound')}
        extra={
          <Button type="primary" onClick={() => void navigate(EXAMS_LIST_PATH)}>
            {t('exams.back')}
          </Button>
        }
      />
    );
  }
  const data = preview.data;
  const questionCount = data?.sections.reduce((count, section) => count + section.questions.length, 0) ?? 0;

  return (
    <div className="exam-preview">
      <Card size="small" className="exam-preview__head">
        <Flex justify="space-between" align="flex-start" wrap gap={12}>
          <div className="exam-preview__title">
            <Typography.Title level={4} style={{ margin: 0 }}>
              {data === undefined ? t('preview.pageTitle', { title: '…' }) : data.title}
            </Typography.Title>
            {data !== undefined && (
              <Space size={[4, 4]} wrap style={{ marginTop: 8 }}>
                <Tag color="blue">{t('preview.totalScore', { score: data.totalScore })}</Tag>
                <Tag color="green">{t('preview.passScore', { score: data.passScore })}</Tag>
                <Tag>{data.limitMinutes === null ? t('preview.noLimit') : t('preview.limit', { minutes: data.limitMinutes })}</Tag>
                <Tag>{t('preview.questions', { count: questionCount })}</Tag>
              </Space>
            )}
          </div>
          <Space wrap>
            <Space size={6}>
              <Switch id="exam-preview-key" checked={showKey} onChange={setShowKey} />
              <label htmlFor="exam-preview-key">{t('preview.showKey')}</label>
            </Space>
            <Button type="primary" icon={<ReloadOutlined />} loading={preview.isFetching} onClick={() => void preview.refetch()}>
              {t('preview.drawAgain')}
            </Button>
            <Permission roles={EDIT}>
              <Button icon={<EditOutlined />} onClick={() => void navigate(`${EDIT_EXAM_PATH}?id=${examId}`)}>
                {t('exams.edit')}
              </Button>
            </Permission>
            <Button icon={<ArrowLeftOutlined />} onClick={() => void navigate(EXAMS_LIST_PATH)}>
              {t('exams.back')}
            </Button>
          </Space>
        </Flex>
        <Typography.Paragraph type="secondary" style={{ margin: '8px 0 0' }}>
          {t('preview.hint')}
        </Typography.Paragraph>
        {data !== undefined && data.description !== '' && <Typography.Paragraph className="exam-preview__description">{data.description}</Typography.Paragraph>}
      </Card>
      {preview.error !== null && data === undefined && <Alert type="error" showIcon message={t('preview.failed')} description={preview.error.message} />}
      {data === undefined ? (
        preview.isPending && <Skeleton active />
      ) : (
        // A new draw is a new paper: the answers tried on the last one go with it.
        <PreviewPaper key={preview.dataUpdatedAt} preview={data} showKey={showKey} />
      )}
    </div>
  );
}

/** /edu/preview-exam?id=<exam>: a paper drawn as a learner would get it, with the key, and a new draw on demand. */
export default function ExamPreviewPage() {
  const id = useExamIdParam();
  if (id === undefined) return <NoExamChosen />;
  return <Preview key={id} examId={id} />;
}
