import { ArrowLeftOutlined, DownloadOutlined, EditOutlined, ReloadOutlined } from '@ant-design/icons';
import type { ExamReport } from '@cloud-classroom/shared/attempts';
import type { PermissionCheck } from '@cloud-classroom/shared/permission';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Col, Empty, Flex, Popconfirm, Result, Row, Skeleton, Space, Statistic, Table, Tag, Tooltip, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import type { ChartOption } from '../../components/chart/chart';
import { LazyChart } from '../../components/chart/lazy-chart';
import { Permission, useCheckPermission } from '../../components/permission';
import { HttpError } from '../../lib/http-client';
import { EXAMS_LIST_PATH } from '../exams/exam-paths';
import { NoExamChosen, useExamIdParam } from '../exams/exam-id-param';
import { useExamMessages } from '../exams/exams-messages';
import { correctExamAddress } from './attempt-paths';
import { attemptsKeys, downloadExamReport, examReportQuery, regradeExam } from './attempts-api';
import { useAttemptMessages, type AttemptTranslate } from './attempts-messages';
import { formatScore } from './marking-item-view';
import './attempts.css';

const EDIT: readonly PermissionCheck[] = ['admin', 'exam:edit'];
const LIST: readonly PermissionCheck[] = ['admin', 'exam:list'];
const MARK: readonly PermissionCheck[] = ['admin', 'mark:list'];

type QuestionRow = ExamReport['questions'][number];
type DeptRow = ExamReport['departments'][number];
type CandidateRow = ExamReport['candidates'][number];

const percent = (share: number | null) => (share === null ? '—' : `${Math.round(share * 1000) / 10}%`);
const twoPlaces = (value: number | null) => (value === null ? '—' : value.toFixed(2));

const PASS_COLOUR = '#52c41a';
const BELOW_COLOUR = '#faad14';
const BAR_COLOUR = '#1677ff';

function histogramOption(report: ExamReport, t: AttemptTranslate): ChartOption {
  return {
    grid: { left: 40, right: 16, top: 16, bottom: 48 },
    tooltip: { trigger: 'axis' },
    xAxis: {
      type: 'category',
      name: t('report.scoreBand'),
      nameLocation: 'middle',
      nameGap: 32,
      data: report.histogram.map((band) => `${formatScore(band.from)}–${formatScore(band.to)}`),
      axisLabel: { interval: 0, rotate: report.histogram.length > 6 ? 30 : 0, fontSize: 11 },
    },
    yAxis: { type: 'value', minInterval: 1, name: t('report.people') },
    series: [
      {
        type: 'bar',
        name: t('report.people'),
        // Bands at or above the pass mark in green, below it in amber: where the pass line falls at a glance.
        data: report.histogram.map((band) => ({ value: band.count, itemStyle: { color: band.from >= report.passScore ? PASS_COLOUR : BELOW_COLOUR } })),
        barMaxWidth: 48,
      },
    ],
  };
}

function facilityOption(report: ExamReport, t: AttemptTranslate): ChartOption {
  return {
    grid: { left: 40, right: 16, top: 16, bottom: 32 },
    tooltip: { trigger: 'axis', valueFormatter: (value) => `${String(value)}%` },
    xAxis: { type: 'category', data: report.questions.map((_question, index) => String(index + 1)) },
    yAxis: { type: 'value', min: 0, max: 100, axisLabel: { formatter: '{value}%' } },
    series: [
      {
        type: 'bar',
        name: t('report.q.facility'),
        data: report.questions.map((question) => (question.facility === null ? null : Math.round(question.facility * 1000) / 10)),
        itemStyle: { color: BAR_COLOUR },
        barMaxWidth: 32,
      },
    ],
  };
}

function departmentOption(report: ExamReport, t: AttemptTranslate): ChartOption {
  return {
    grid: { left: 40, right: 16, top: 16, bottom: 48, containLabel: false },
    tooltip: { trigger: 'axis' },
    xAxis: {
      type: 'category',
      data: report.departments.map((dept) => dept.deptName || t('report.noDept')),
      axisLabel: { interval: 0, rotate: report.departments.length > 4 ? 30 : 0, fontSize: 11 },
    },
    yAxis: { type: 'value', min: 0, max: report.totalScore },
    series: [{ type: 'bar', name: t('report.dept.mean'), data: report.departments.map((dept) => dept.mean), itemStyle: { color: BAR_COLOUR }, barMaxWidth: 40 }],
  };
}

function Figures({ report, t }: { report: ExamReport; t: AttemptTranslate }) {
  const figures: { key: string; title: string; value: string; hint?: string }[] = [
    { key: 'assigned', title: t('report.assigned'), value: String(report.assigned) },
    { key: 'graded', title: t('report.graded'), value: String(report.graded) },
    { key: 'marking', title: t('report.marking'), value: String(report.marking) },
    { key: 'inProgress', title: t('report.inProgress'), value: String(report.inProgress) },
    { key: 'passRate', title: t('report.passRate'), value: percent(report.passRate), hint: t('report.passedOf', { passed: report.passed, graded: report.graded }) },
    { key: 'mean', title: t('report.mean'), value: twoPlaces(report.mean) },
    { key: 'median', title: t('report.median'), value: formatScore(report.median) },
    { key: 'stdDev', title: t('report.stdDev'), value: twoPlaces(report.stdDev) },
    { key: 'min', title: t('report.min'), value: formatScore(report.min) },
    { key: 'max', title: t('report.max'), value: formatScore(report.max) },
  ];
  return (
    <Row gutter={[12, 12]} className="report__figures">
      {figures.map((figure) => (
        <Col key={figure.key} xs={12} sm={8} md={6} lg={4} xl={4}>
          <Card size="small">
            <Statistic title={figure.title} value={figure.value} />
            {figure.hint !== undefined && <Typography.Text type="secondary">{figure.hint}</Typography.Text>}
          </Card>
        </Col>
      ))}
    </Row>
  );
}

function QuestionTable({ report, t }: { report: ExamReport; t: AttemptTranslate }) {
  return (
    <Table<QuestionRow>
      size="small"
      rowKey="questionId"
      dataSource={report.questions}
      pagination={false}
      scroll={{ x: 980 }}
      columns={[
        { key: 'index', title: t('report.q.index'), width: 60, render: (_value, _row, index) => index + 1 },
        { key: 'stem', title: t('report.q.stem'), dataIndex: 'stemText', ellipsis: { showTitle: true }, width: 240 },
        { key: 'type', title: t('report.q.type'), dataIndex: 'type', width: 110, render: (type: QuestionRow['type']) => t(`question.type.${type}`) },
        { key: 'max', title: t('report.q.max'), dataIndex: 'maxScore', width: 70, render: formatScore },
        { key: 'answered', title: t('report.q.answered'), dataIndex: 'answered', width: 90 },
        {
          key: 'facility',
          title: <Tooltip title={t('report.q.facilityHint')}>{t('report.q.facility')}</Tooltip>,
          dataIndex: 'facility',
          width: 90,
          render: percent,
        },
        {
          key: 'discrimination',
          title: <Tooltip title={t('report.q.discriminationHint')}>{t('report.q.discrimination')}</Tooltip>,
          dataIndex: 'discrimination',
          width: 120,
          render: (value: number | null) => (value === null ? '—' : <Typography.Text type={value < 0 ? 'danger' : value < 0.2 ? 'warning' : undefined}>{value.toFixed(2)}</Typography.Text>),
        },
        {
          key: 'options',
          title: t('report.q.options'),
          width: 260,
          render: (_value, row) =>
            row.options.length === 0 ? (
              '—'
            ) : (
              <span className="report__options">
                {row.options.map((option) => (
                  <Tooltip key={option.key} title={option.text}>
                    <Tag color={option.correct ? 'green' : undefined}>
                      {option.key} {percent(option.rate)}
                      {option.correct && ' ✓'}
                    </Tag>
                  </Tooltip>
                ))}
              </span>
            ),
        },
        {
          key: 'time',
          title: t('report.q.time'),
          dataIndex: 'meanSeconds',
          width: 90,
          render: (seconds: number | null) => (seconds === null ? '—' : t('report.seconds', { count: Math.round(seconds) })),
        },
      ]}
    />
  );
}

function DepartmentTable({ report, t }: { report: ExamReport; t: AttemptTranslate }) {
  return (
    <Table<DeptRow>
      size="small"
      rowKey={(row) => String(row.deptId ?? 'none')}
      dataSource={report.departments}
      pagination={false}
      scroll={{ x: 480 }}
      columns={[
        { key: 'name', title: t('report.dept.name'), dataIndex: 'deptName', render: (name: string) => name || t('report.noDept') },
        { key: 'graded', title: t('report.dept.graded'), dataIndex: 'graded', width: 100 },
        { key: 'passed', title: t('report.dept.passed'), dataIndex: 'passed', width: 100 },
        { key: 'passRate', title: t('report.dept.passRate'), width: 100, render: (_value, row) => percent(row.graded === 0 ? null : row.passed / row.graded) },
        { key: 'mean', title: t('report.dept.mean'), dataIndex: 'mean', width: 100, render: twoPlaces },
      ]}
    />
  );
}

function CandidateTable({ report, t, onOpen }: { report: ExamReport; t: AttemptTranslate; onOpen?: (row: CandidateRow) => void }) {
  return (
    <Table<CandidateRow>
      size="small"
      rowKey="attemptId"
      dataSource={report.candidates}
      pagination={{ pageSize: 20, hideOnSinglePage: true, showSizeChanger: false }}
      scroll={{ x: 900 }}
      columns={[
        {
          key: 'name',
          title: t('report.c.name'),
          width: 180,
          render: (_value, row) => (
            <span>
              {row.nickName} <Typography.Text type="secondary">({row.username})</Typography.Text>
            </span>
          ),
        },
        { key: 'dept', title: t('report.c.dept'), dataIndex: 'deptName', width: 140, render: (name: string | null) => name ?? '—' },
        { key: 'state', title: t('report.c.state'), dataIndex: 'state', width: 100, render: (state: CandidateRow['state']) => t(`attempt.state.${state}`) },
        { key: 'score', title: t('report.c.score'), dataIndex: 'score', width: 80, render: formatScore },
        {
          key: 'result',
          title: t('report.c.result'),
          dataIndex: 'passed',
          width: 90,
          render: (passed: boolean | null) => (passed === null ? '—' : <Tag color={passed ? 'green' : 'default'}>{t(passed ? 'attempt.passed' : 'attempt.failed')}</Tag>),
        },
        { key: 'submittedAt', title: t('report.c.submittedAt'), dataIndex: 'submittedAt', width: 160, render: (at: string | null) => at ?? '—' },
        { key: 'events', title: <Tooltip title={t('report.c.eventsHint')}>{t('report.c.events')}</Tooltip>, dataIndex: 'events', width: 90 },
        ...(onOpen === undefined
          ? []
          : [
              {
                key: 'actions',
                title: t('report.c.actions'),
                width: 110,
                render: (_value: unknown, row: CandidateRow) => (
                  <Button type="link" size="small" onClick={() => onOpen(row)}>
                    {t('report.c.open')}
                  </Button>
                ),
              },
            ]),
      ]}
    />
  );
}

function Report({ examId }: { examId: number }) {
  const t = useAttemptMessages();
  const te = useExamMessages();
  const navigate = useNavigate();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const mayMark = useCheckPermission()(MARK);
  const report = useQuery(examReportQuery(examId));
  const [exporting, setExporting] = useState(false);
  const regrade = useMutation({
    mutationFn: () => regradeExam(examId),
    onSuccess: async (result) => {
      message.success(t('report.regraded', result));
      await queryClient.invalidateQueries({ queryKey: attemptsKeys.all });
    },
  });
  const data = report.data;
  const charts = useMemo(
    () => (data === undefined ? undefined : { histogram: histogramOption(data, t), facility: facilityOption(data, t), departments: departmentOption(data, t) }),
    [data, t],
  );

  if (report.error instanceof HttpError && report.error.status === 404) {
    return (
      <Result
        status="warning"
        title={te('exams.notFound')}
        extra={
          <Button type="primary" onClick={() => void navigate(EXAMS_LIST_PATH)}>
            {te('exams.back')}
          </Button>
        }
      />
    );
  }

  const exportReport = async () => {
    if (data === undefined) return;
    setExporting(true);
    try {
      await downloadExamReport(examId, data.title);
    } finally {
      setExporting(false);
    }
  };

  return (
    <div className="report">
      <Card size="small">
        <Flex justify="space-between" align="flex-start" wrap gap={12}>
          <div className="report__title">
            <Typography.Title level={4} style={{ margin: 0 }}>
              {t('report.pageTitle', { title: data?.title ?? '…' })}
            </Typography.Title>
            {data !== undefined && (
              <Typography.Text type="secondary">{t('report.totalPass', { total: formatScore(data.totalScore), pass: formatScore(data.passScore) })}</Typography.Text>
            )}
          </div>
          <Space wrap>
            <Permission roles={EDIT}>
              <Popconfirm
                title={t('report.regrade')}
                description={<div style={{ maxWidth: 320 }}>{t('report.regradeConfirm')}</div>}
                onConfirm={() => regrade.mutateAsync().catch(() => undefined)}
              >
                <Button icon={<ReloadOutlined />} loading={regrade.isPending}>
                  {t('report.regrade')}
                </Button>
              </Popconfirm>
            </Permission>
            <Permission roles={LIST}>
              <Button icon={<DownloadOutlined />} loading={exporting} disabled={data === undefined} onClick={() => void exportReport()}>
                {t('report.export')}
              </Button>
            </Permission>
            <Permission roles={MARK}>
              <Button icon={<EditOutlined />} onClick={() => void navigate(correctExamAddress(examId))}>
                {t('report.mark')}
              </Button>
            </Permission>
            <Button icon={<ArrowLeftOutlined />} onClick={() => void navigate(EXAMS_LIST_PATH)}>
              {te('exams.back')}
            </Button>
          </Space>
        </Flex>
      </Card>
      {report.error !== null && data === undefined && <Alert type="error" showIcon message={t('report.failed')} description={report.error.message} />}
      {data === undefined || charts === undefined ? (
        report.isPending && <Skeleton active />
      ) : (
        <>
          <Figures report={data} t={t} />
          <Row gutter={[12, 12]}>
            <Col xs={24} lg={12}>
              <Card size="small" title={t('report.histogram')}>
                {data.graded === 0 ? <Empty description={t('report.empty')} /> : <LazyChart option={charts.histogram} label={t('report.histogram')} />}
              </Card>
            </Col>
            <Col xs={24} lg={12}>
              <Card size="small" title={t('report.q.facility')}>
                {data.questions.length === 0 || data.graded === 0 ? <Empty description={t('report.empty')} /> : <LazyChart option={charts.facility} label={t('report.q.facility')} />}
              </Card>
            </Col>
          </Row>
          <Card size="small" title={t('report.questions')}>
            <QuestionTable report={data} t={t} />
          </Card>
          <Card size="small" title={t('report.departments')}>
            <Row gutter={[12, 12]}>
              <Col xs={24} lg={12}>
                {data.departments.length === 0 ? <Empty description={t('report.empty')} /> : <LazyChart option={charts.departments} label={t('report.departments')} />}
              </Col>
              <Col xs={24} lg={12}>
                <DepartmentTable report={data} t={t} />
              </Col>
            </Row>
          </Card>
          <Card size="small" title={t('report.candidates')}>
            <CandidateTable report={data} t={t} onOpen={mayMark ? (row) => void navigate(correctExamAddress(examId, row.attemptId)) : undefined} />
          </Card>
        </>
      )}
    </div>
  );
}

/** /edu/report-exam?exam=<id>: the exam's results — distribution, pass rate, per question and department figures, candidates. */
export default function ReportExamPage() {
  const id = useExamIdParam('exam');
  if (id === undefined) return <NoExamChosen />;
  return <Report key={id} examId={id} />;
}
