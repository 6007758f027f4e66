import { ArrowLeftOutlined, DownloadOutlined } from '@ant-design/icons';
import { CENSUS_LOGINS_SHOWN, type CensusAttempt, type CensusCertificate, type CensusCourse, type CensusLogin } from '@cloud-classroom/shared/census';
import type { CertificateStatus } from '@cloud-classroom/shared/certificates';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Descriptions, Empty, Flex, Progress, Result, Space, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { HttpError } from '../../lib/http-client';
import { CertificateStatusTag } from '../certificates/certificate-status-tag';
import { certificatePdfUrl } from '../certificates/certificates-api';
import { idOfParam } from '../exams/exam-id-param';
import { CENSUS_LIST_PATH, censusUserQuery, downloadCensusUser, type CensusRange } from './census-api';
import { CensusDaysPicker, type CensusDays } from './census-days-picker';
import { useCensusMessages } from './census-messages';
import { CensusUserChart } from './census-user-chart';
import { studyTime } from './study-time';
import './census.css';

const TABLE_SCROLL = { x: 'max-content' } as const;

/** 学员学习档案 (`/edu/user-census-detail?id=…`): one person's study time, courses, exams, certificates and logins over a range of days. */
export default function CensusUserPage() {
  const t = useCensusMessages();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const userId = idOfParam(params.get('id'));
  // None chosen yet: the server's default (the last 30 days in the organisation's zone), which the answer names.
  const [range, setRange] = useState<CensusRange>({});
  const [exporting, setExporting] = useState(false);
  const record = useQuery({ ...censusUserQuery(userId ?? 0, range), enabled: userId !== undefined });
  const data = record.data;

  const back = (
    <Button type="primary" icon={<ArrowLeftOutlined />} onClick={() => void navigate(CENSUS_LIST_PATH)}>
      {t('census.back')}
    </Button>
  );
  if (userId === undefined) return <Result status="warning" title={t('census.badId')} extra={back} />;
  if (record.error instanceof HttpError && record.error.status === 404) return <Result status="warning" title={t('census.notFound')} extra={back} />;

  // The days picked show at once; until then, those the server chose.
  const shown: CensusDays | undefined =
    range.from !== undefined && range.to !== undefined ? [range.from, range.to] : data === undefined ? undefined : [data.from, data.to];
  const person = data?.person;

  const courseColumns: TableColumnsType<CensusCourse> = [
    { key: 'title', title: t('census.course'), dataIndex: 'title', ellipsis: true, width: 220 },
    {
      key: 'percent',
      title: t('census.progress'),
      dataIndex: 'percent',
      width: 200,
      render: (percent: number, row) => (
        <span title={t('census.lessons', { done: row.completedLessons, total: row.requiredLessons })}>
          <Progress percent={percent} size="small" status={row.status === 'completed' ? 'success' : 'normal'} />
        </span>
      ),
    },
    { key: 'status', title: t('census.status'), dataIndex: 'status', width: 100, render: (status: string) => t(`census.status.${status}` as 'census.status.approved') },
    { key: 'enrolledAt', title: t('census.enrolledAt'), dataIndex: 'enrolledAt', width: 165 },
    { key: 'completedAt', title: t('census.completedAt'), dataIndex: 'completedAt', width: 165, render: (at: string | null) => at ?? '' },
  ];
  const attemptColumns: TableColumnsType<CensusAttempt> = [
    { key: 'exam', title: t('census.exam'), dataIndex: 'examTitle', ellipsis: true, width: 220 },
    { key: 'number', title: t('census.attemptNumber'), dataIndex: 'number', width: 80 },
    {
      key: 'score',
      title: t('census.score'),
      dataIndex: 'score',
      width: 110,
      render: (score: number | null, row) => (score === null ? t(`census.state.${row.state}` as 'census.state.graded') : `${score} / ${row.totalScore}`),
    },
    {
      key: 'passed',
      title: t('census.passed'),
      dataIndex: 'passed',
      width: 100,
      render: (passed: boolean | null) => (passed === null ? '' : <Tag color={passed ? 'green' : 'red'}>{passed ? t('census.yes') : t('census.no')}</Tag>),
    },
    { key: 'submittedAt', title: t('census.submittedAt'), dataIndex: 'submittedAt', width: 165, render: (at: string | null) => at ?? '' },
  ];
  const certificateColumns: TableColumnsType<CensusCertificate> = [
    {
      key: 'number',
      title: t('census.certNumber'),
      dataIndex: 'number',
      width: 170,
      render: (number: string, row) => (
        <Typography.Link href={certificatePdfUrl(row.id)} target="_blank" rel="noopener">
          {number}
        </Typography.Link>
      ),
    },
    { key: 'title', title: t('census.certTitle'), dataIndex: 'title', ellipsis: true, width: 200 },
    { key: 'status', title: t('census.certStatus'), dataIndex: 'status', width: 100, render: (status: CertificateStatus) => <CertificateStatusTag status={status} /> },
    { key: 'issuedAt', title: t('census.issuedAt'), dataIndex: 'issuedAt', width: 165 },
    { key: 'expiresOn', title: t('census.expiresOn'), dataIndex: 'expiresOn', width: 110, render: (day: string | null) => day ?? '' },
  ];
  const loginColumns: TableColumnsType<CensusLogin> = [
    { key: 'at', title: t('census.loginAt'), dataIndex: 'at', width: 165 },
    { key: 'ip', title: t('census.ip'), dataIndex: 'ip', width: 140 },
    { key: 'browser', title: t('census.browser'), dataIndex: 'browser', ellipsis: true },
  ];

  const section = <Row,>(title: string, rows: Row[] | undefined, columns: TableColumnsType<Row>, rowKey: (row: Row) => string | number, extra?: string) => (
    <Card size="small" title={title} extra={extra && <Typography.Text type="secondary">{extra}</Typography.Text>}>
      <Table<Row> size="small" rowKey={rowKey} columns={columns} dataSource={rows ?? []} loading={record.isFetching} pagination={false} scroll={TABLE_SCROLL} />
    </Card>
  );
  const studied = data?.days.reduce((sum, day) => sum + day.seconds, 0) ?? 0;

  return (
    <div className="census-user">
      <Card size="small">
        <Flex justify="space-between" align="flex-start" wrap gap={12}>
          <div>
            <Typography.Title level={4} style={{ margin: 0 }}>
              {person === undefined ? '…' : `${person.nickName} (${person.username})`}
            </Typography.Title>
            {person?.deptName && <Typography.Text type="secondary">{person.deptName}</Typography.Text>}
          </div>
          <Space wrap>
            <CensusDaysPicker
              id="census-user-days"
              label={t('census.days')}
              allowClear={false}
              value={shown}
              onChange={(days) => setRange(days === undefined ? {} : { from: days[0], to: days[1] })}
            />
            <Button
              icon={<DownloadOutlined />}
              loading={exporting}
              disabled={shown === undefined || person === undefined}
              onClick={() => {
                if (shown === undefined || person === undefined) return;
                setExporting(true);
                void downloadCensusUser(userId, { from: shown[0], to: shown[1] }, t('census.recordExportName', { name: person.nickName })).finally(() => setExporting(false));
              }}
            >
              {t('census.export')}
            </Button>
          </Space>
        </Flex>
        {person !== undefined && (
          <Descriptions size="small" style={{ marginTop: 12 }} column={{ xs: 1, sm: 2, lg: 4 }}>
            <Descriptions.Item label={t('census.studyTime')}>{studyTime(studied, t)}</Descriptions.Item>
            <Descriptions.Item label={t('census.coursesEnrolled')}>{person.coursesEnrolled}</Descriptions.Item>
            <Descriptions.Item label={t('census.coursesCompleted')}>{person.coursesCompleted}</Descriptions.Item>
            <Descriptions.Item label={t('census.examsAttempted')}>{person.examsAttempted}</Descriptions.Item>
            <Descriptions.Item label={t('census.examsPassed')}>{person.examsPassed}</Descriptions.Item>
            <Descriptions.Item label={t('census.certificates')}>{person.certificates}</Descriptions.Item>
            <Descriptions.Item label={t('census.lastLogin')}>{person.lastLoginAt ?? t('census.never')}</Descriptions.Item>
          </Descriptions>
        )}
      </Card>
      <Card size="small" title={t('census.chart')} extra={shown && <Typography.Text type="secondary">{t('census.range', { from: shown[0], to: shown[1] })}</Typography.Text>}>
        {data === undefined ? null : studied === 0 ? <Empty description={t('census.noStudy')} /> : <CensusUserChart days={data.days} t={t} />}
      </Card>
      {section(t('census.courses'), data?.courses, courseColumns, (row) => row.courseId)}
      {section(t('census.attempts'), data?.attempts, attemptColumns, (row) => row.attemptId)}
      {section(t('census.certificates'), data?.certificates, certificateColumns, (row) => row.id)}
      {section(t('census.logins'), data?.logins, loginColumns, (row) => `${row.at} ${row.ip}`, t('census.loginsHint', { count: CENSUS_LOGINS_SHOWN }))}
    </div>
  );
}
