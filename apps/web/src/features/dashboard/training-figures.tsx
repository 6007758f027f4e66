import {
  ClockCircleOutlined,
  ExclamationCircleOutlined,
  FileDoneOutlined,
  FormOutlined,
  ReadOutlined,
  SafetyCertificateOutlined,
  TeamOutlined,
} from '@ant-design/icons';
import type { TrainingDashboard } from '@cloud-classroom/shared/dashboard';
import { useQuery } from '@tanstack/react-query';
import { Card, Col, Empty, Flex, Row, Segmented, Skeleton, Statistic, Tag } from 'antd';
import { useMemo, useState, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import type { ChartOption } from '../../components/chart/chart';
import { LazyChart } from '../../components/chart/lazy-chart';
import { overdueApplicantsAddress } from '../applicants/applicant-paths';
import { reportExamAddress } from '../attempts/attempt-paths';
import { CERTIFICATES_LIST_PATH } from '../certificates/certificate-paths';
import { useSelectedCourseStore } from '../courses/selected-course-store';
import { EXAMS_LIST_PATH, overdueAssigneesAddress } from '../exams/exam-paths';
import { trainingQuery } from './dashboard-api';
import type { useDashboardMessages } from './dashboard-messages';

type DashboardTranslate = ReturnType<typeof useDashboardMessages>;

const SPANS = [7, 30, 90] as const;
const BAR_COLOUR = '#1677ff';
const LINE_COLOUR = '#fa8c16';
const DONE_COLOUR = '#52c41a';

const hours = (seconds: number) => Math.round((seconds / 3600) * 10) / 10;
/** `MM-dd` of a `yyyy-MM-dd`: the year is the chart's title's business. */
const shortDay = (date: string) => date.slice(5);
const percent = (share: number) => Math.round(share * 1000) / 10;

function studyOption(data: TrainingDashboard, t: DashboardTranslate): ChartOption {
  return {
    grid: { left: 8, right: 8, top: 40, bottom: 8, containLabel: true },
    legend: { top: 0 },
    tooltip: { trigger: 'axis' },
    xAxis: { type: 'category', data: data.days.map((day) => shortDay(day.date)) },
    yAxis: [
      { type: 'value', name: t('training.hours'), minInterval: 0.1 },
      { type: 'value', name: t('training.learners'), minInterval: 1, splitLine: { show: false } },
    ],
    series: [
      { type: 'bar', name: t('training.hours'), data: data.days.map((day) => hours(day.studySeconds)), itemStyle: { color: BAR_COLOUR }, barMaxWidth: 24 },
      { type: 'line', name: t('training.learners'), yAxisIndex: 1, data: data.days.map((day) => day.learners), itemStyle: { color: LINE_COLOUR }, symbolSize: 4 },
    ],
  };
}

function enrolmentOption(data: TrainingDashboard, t: DashboardTranslate): ChartOption {
  return {
    grid: { left: 8, right: 8, top: 40, bottom: 8, containLabel: true },
    legend: { top: 0 },
    tooltip: { trigger: 'axis' },
    xAxis: { type: 'category', data: data.days.map((day) => shortDay(day.date)) },
    yAxis: { type: 'value', minInterval: 1 },
    series: [
      { type: 'line', name: t('training.enrolled'), data: data.days.map((day) => day.enrolments), itemStyle: { color: BAR_COLOUR }, areaStyle: { opacity: 0.15 }, symbolSize: 4 },
      { type: 'line', name: t('training.completed'), data: data.days.map((day) => day.completions), itemStyle: { color: DONE_COLOUR }, areaStyle: { opacity: 0.15 }, symbolSize: 4 },
    ],
  };
}

function passOption(data: TrainingDashboard, t: DashboardTranslate): ChartOption {
  // Horizontal bars: exam titles are long, and a phone has room for them only across.
  const exams = [...data.recentExams].reverse();
  return {
    grid: { left: 8, right: 40, top: 8, bottom: 8, containLabel: true },
    tooltip: {
      trigger: 'axis',
      formatter: (params) => {
        const first = (Array.isArray(params) ? params[0] : params) as { dataIndex: number } | undefined;
        const exam = first === undefined ? undefined : exams[first.dataIndex];
        return exam === undefined ? '' : `${exam.title}<br/>${t('training.passRate')}: ${percent(exam.passRate)}% (${t('training.passTooltip', { passed: exam.passed, counted: exam.counted })})`;
      },
    },
    // Three marks fit the narrowest card as well as the widest.
    xAxis: { type: 'value', min: 0, max: 100, interval: 50, axisLabel: { formatter: '{value}%' } },
    yAxis: { type: 'category', data: exams.map((exam) => exam.title), axisLabel: { width: 110, overflow: 'truncate' } },
    series: [
      {
        type: 'bar',
        name: t('training.passRate'),
        data: exams.map((exam) => percent(exam.passRate)),
        itemStyle: { color: DONE_COLOUR },
        barMaxWidth: 20,
        label: { show: true, position: 'right', formatter: '{c}%' },
      },
    ],
  };
}

type FigureCardProps = { title: string; value: number; hint: string; icon: ReactNode; to?: string; tooltip?: string };

/** A figure; with `to`, the whole card links to the list behind it (`#id`: to that part of this page). */
function FigureCard({ title, value, hint, icon, to, tooltip }: FigureCardProps) {
  const card = (
    <Card hoverable={to !== undefined} size="small" className="dashboard-figure">
      <Statistic title={<span title={tooltip}>{title}</span>} value={value} prefix={icon} />
      <span className="dashboard-secondary dashboard-small">{hint}</span>
    </Card>
  );
  if (to === undefined) return card;
  const label = `${title}: ${value}`;
  if (to.startsWith('#')) {
    return (
      <a
        href={to}
        aria-label={label}
        className="dashboard-figure-link"
        onClick={(event) => {
          event.preventDefault();
          document.getElementById(to.slice(1))?.scrollIntoView({ behavior: 'smooth', block: 'start' });
        }}
      >
        {card}
      </a>
    );
  }
  return (
    <Link to={to} aria-label={label} className="dashboard-figure-link">
      {card}
    </Link>
  );
}

function ChartCard({ title, extra, empty, children }: { title: string; extra?: ReactNode; empty: string | undefined; children: ReactNode }) {
  return (
    <Card title={title} extra={extra} size="small">
      {empty === undefined ? children : <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={empty} />}
    </Card>
  );
}

function OverdueList({ data, t }: { data: TrainingDashboard; t: DashboardTranslate }) {
  const navigate = useNavigate();
  const selectCourse = useSelectedCourseStore((state) => state.select);
  const { courses, exams } = data.overdue;
  // The applicants page works on the course chosen on the course list: choose it, then open it filtered.
  const openCourse = (course: TrainingDashboard['overdue']['courses'][number]) => {
    selectCourse({ id: course.courseId, name: course.title });
    void navigate(overdueApplicantsAddress());
  };
  return (
    <Card title={t('training.overdueList')} size="small" id="dashboard-overdue">
      {courses.length === 0 && exams.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('training.noOverdue')} />
      ) : (
        <Flex vertical gap={12}>
          {courses.length > 0 && (
            <section aria-label={t('training.overdueCourses')}>
              <div className="dashboard-secondary dashboard-small">{t('training.overdueCourses')}</div>
              <ul className="dashboard-list">
                {courses.map((course) => (
                  <li key={course.courseId}>
                    <a
                      href={overdueApplicantsAddress()}
                      className="dashboard-ellipsis"
                      onClick={(event) => {
                        event.preventDefault();
                        openCourse(course);
                      }}
                    >
                      {course.title}
                    </a>
                    <Tag color="red">{t('training.people', { count: course.count })}</Tag>
                  </li>
                ))}
              </ul>
            </section>
          )}
          {exams.length > 0 && (
            <section aria-label={t('training.overdueExams')}>
              <div className="dashboard-secondary dashboard-small">{t('training.overdueExams')}</div>
              <ul className="dashboard-list">
                {exams.map((exam) => (
                  <li key={exam.examId}>
                    <Link to={overdueAssigneesAddress(exam.examId)} className="dashboard-ellipsis">
                      {exam.title}
                    </Link>
                    <Tag color="red">{t('training.people', { count: exam.count })}</Tag>
                  </li>
                ))}
              </ul>
            </section>
          )}
        </Flex>
      )}
    </Card>
  );
}

function OpenExamList({ data, t }: { data: TrainingDashboard; t: DashboardTranslate }) {
  return (
    <Card title={t('training.openList')} size="small" extra={<Link to={EXAMS_LIST_PATH}>{t('training.allExams')}</Link>}>
      {data.openExams.exams.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('training.noOpenExams')} />
      ) : (
        <ul className="dashboard-list" aria-label={t('training.openList')}>
          {data.openExams.exams.map((exam) => (
            <li key={exam.examId}>
              <div style={{ minWidth: 0 }}>
                <Link to={reportExamAddress(exam.examId)} className="dashboard-ellipsis">
                  {exam.title}
                </Link>
                <span className="dashboard-secondary dashboard-small">{exam.closeAt === null ? t('training.noClose') : t('training.closesAt', { time: exam.closeAt })}</span>
              </div>
              <Tag color={exam.inProgress > 0 ? 'processing' : 'default'}>{t('training.assignedSitting', { assigned: exam.assigned, sitting: exam.inProgress })}</Tag>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}

/**
 * A training manager's figures (`GET api/dashboard/training`), of the people within their data
 * scope: cards, the charts over the chosen span (drawn by ECharts, loaded with the page in its own
 * chunk) and the lists behind the open exams and the overdue work.
 */
export function TrainingFigures({ t }: { t: DashboardTranslate }) {
  const [days, setDays] = useState<(typeof SPANS)[number]>(30);
  const { data, isPending } = useQuery(trainingQuery(days));
  const charts = useMemo(() => (data === undefined ? undefined : { study: studyOption(data, t), enrolment: enrolmentOption(data, t), pass: passOption(data, t) }), [data, t]);

  const span = (
    <Segmented<(typeof SPANS)[number]>
      size="small"
      aria-label={t('training.span')}
      value={days}
      onChange={setDays}
      options={SPANS.map((value) => ({ value, label: t('training.days', { count: value }) }))}
    />
  );

  if (isPending || data === undefined || charts === undefined) {
    return (
      <Card title={t('training.title')}>
        <Skeleton active paragraph={{ rows: 6 }} />
      </Card>
    );
  }

  const studySeconds = data.days.reduce((sum, day) => sum + day.studySeconds, 0);
  const overdue = data.overdue.enrolments + data.overdue.examAssignments;
  const figures: (FigureCardProps & { key: string })[] = [
    { key: 'active', title: t('training.activeToday'), value: data.activeToday, hint: t('training.activeWeek', { count: data.activeThisWeek }), icon: <TeamOutlined />, tooltip: t('training.activeHint') },
    { key: 'hours', title: t('training.studyHours'), value: hours(studySeconds), hint: t('training.studyHoursHint', { count: days }), icon: <ClockCircleOutlined /> },
    {
      key: 'enrolments',
      title: t('training.enrolments'),
      value: data.enrolments.active,
      hint: t('training.enrolmentsHint', { completed: data.enrolments.completed, applied: data.enrolments.applied }),
      icon: <ReadOutlined />,
    },
    { key: 'exams', title: t('training.openExams'), value: data.openExams.total, hint: t('training.openExamsHint', { count: data.openExams.inProgress }), icon: <FormOutlined />, to: EXAMS_LIST_PATH },
    {
      key: 'certificates',
      title: t('training.certificates'),
      value: data.certificates.issuedInPeriod,
      hint: t('training.certificatesHint', { week: data.certificates.issuedThisWeek, valid: data.certificates.valid }),
      icon: <SafetyCertificateOutlined />,
      to: CERTIFICATES_LIST_PATH,
    },
    {
      key: 'overdue',
      title: t('training.overdue'),
      value: overdue,
      hint: t('training.overdueHint', { enrolments: data.overdue.enrolments, exams: data.overdue.examAssignments }),
      icon: overdue > 0 ? <ExclamationCircleOutlined style={{ color: '#ff4d4f' }} /> : <FileDoneOutlined />,
      to: '#dashboard-overdue',
    },
  ];

  return (
    <Card title={t('training.title')} extra={span} className="dashboard-training">
      <Row gutter={[12, 12]}>
        {figures.map(({ key, ...figure }) => (
          <Col key={key} xs={12} md={8} xl={4}>
            <FigureCard {...figure} />
          </Col>
        ))}
        <Col xs={24} xl={12}>
          <ChartCard title={t('training.studyChart')} empty={studySeconds === 0 ? t('training.noData') : undefined}>
            <LazyChart option={charts.study} label={t('training.studyChart')} />
          </ChartCard>
        </Col>
        <Col xs={24} xl={12}>
          <ChartCard title={t('training.enrolmentChart')} empty={data.enrolments.enrolledInPeriod + data.enrolments.completedInPeriod === 0 ? t('training.noData') : undefined}>
            <span className="dashboard-secondary dashboard-small">
              {t('training.enrolmentSummary', { count: days, enrolled: data.enrolments.enrolledInPeriod, completed: data.enrolments.completedInPeriod })}
            </span>
            <LazyChart option={charts.enrolment} label={t('training.enrolmentChart')} />
          </ChartCard>
        </Col>
        <Col xs={24} xl={12}>
          <ChartCard title={t('training.passChart')} empty={data.recentExams.length === 0 ? t('training.noExams') : undefined}>
            <span className="dashboard-secondary dashboard-small">{t('training.passHint')}</span>
            <LazyChart option={charts.pass} label={t('training.passChart')} />
          </ChartCard>
        </Col>
        <Col xs={24} md={12} xl={6}>
          <OpenExamList data={data} t={t} />
        </Col>
        <Col xs={24} md={12} xl={6}>
          <OverdueList data={data} t={t} />
        </Col>
      </Row>
    </Card>
  );
}
