import { BarChartOutlined, EyeOutlined, FormOutlined, UsergroupAddOutlined } from '@ant-design/icons';
import { EXAM_STATUSES, type Exam, type ExamStatus } from '@cloud-classroom/shared/exams';
import type { PermissionCheck } from '@cloud-classroom/shared/permission';
import { useQuery } from '@tanstack/react-query';
import { Button, Form, Input, Select, Typography } from 'antd';
import { useNavigate } from 'react-router';
import { Permission } from '../../components/permission';
import { useListMessages } from '../../components/list-page/list-page-messages';
import { ListPage, type ListColumn } from '../../components/list-page/list-page';
import { RowActions } from '../../components/list-page/row-actions';
import { SearchBar } from '../../components/list-page/search-bar';
import { useListPage } from '../../components/list-page/use-list-page';
import { correctExamAddress, reportExamAddress } from '../attempts/attempt-paths';
import { ASSIGN_EXAM_PATH, EDIT_EXAM_PATH, PREVIEW_EXAM_PATH } from './exam-paths';
import { courseOptionsQuery, examList } from './exams-api';
import { ExamStatusTag, windowText } from './exam-status-tag';
import { useExamMessages } from './exams-messages';
import './exams.css';

type ExamFilter = { q?: string; courseId?: number; status?: ExamStatus };

const ADD: readonly PermissionCheck[] = ['admin', 'exam:add'];
const EDIT: readonly PermissionCheck[] = ['admin', 'exam:edit'];
const DEL: readonly PermissionCheck[] = ['admin', 'exam:del'];
const LIST: readonly PermissionCheck[] = ['admin', 'exam:list'];
const ASSIGN: readonly PermissionCheck[] = ['admin', 'exam:add', 'exam:edit'];
const MARK: readonly PermissionCheck[] = ['admin', 'mark:list'];

/** Exams → the exams: their paper, window and rules at a glance; edit, preview, assign, mark, report on or delete each. */
export default function ExamListPage() {
  const t = useExamMessages();
  const tl = useListMessages();
  const navigate = useNavigate();
  const list = useListPage<Exam, ExamFilter>({ query: examList, defaultSort: ['id,desc'] });
  const courses = useQuery(courseOptionsQuery());

  const openEdit = (exam: Exam) => void navigate(`${EDIT_EXAM_PATH}?id=${exam.id}`);

  const columns: ListColumn<Exam>[] = [
    {
      key: 'title',
      title: t('exams.title'),
      dataIndex: 'title',
      sortable: true,
      width: 200,
      ellipsis: true,
      render: (title: string, row) => (
        <Typography.Link onClick={() => openEdit(row)} title={title}>
          {title}
        </Typography.Link>
      ),
    },
    {
      key: 'course',
      title: t('exams.courseTerm'),
      width: 180,
      ellipsis: true,
      render: (_value, row) =>
        row.courseTitle === null ? (
          <Typography.Text type="secondary">{t('exams.noCourse')}</Typography.Text>
        ) : (
          <span title={[row.courseTitle, row.termName].filter(Boolean).join(' · ')}>
            {row.courseTitle}
            {row.termName !== null && <Typography.Text type="secondary"> · {row.termName}</Typography.Text>}
          </span>
        ),
    },
    { key: 'status', title: t('exams.status'), dataIndex: 'status', sortable: true, width: 90, render: (status: ExamStatus) => <ExamStatusTag status={status} /> },
    { key: 'openAt', title: t('exams.window'), sortable: true, width: 250, render: (_value, row) => windowText(row, t) },
    {
      key: 'limitMinutes',
      title: t('exams.limit'),
      dataIndex: 'limitMinutes',
      width: 90,
      render: (minutes: number | null) => (minutes === null ? t('exams.noLimit') : t('exams.minutesN', { count: minutes })),
    },
    { key: 'attempts', title: t('exams.attempts'), dataIndex: 'attempts', width: 80 },
    { key: 'score', title: t('exams.totalPass'), width: 110, render: (_value, row) => `${row.totalScore} / ${row.passScore}` },
    { key: 'questionCount', title: t('exams.questionCount'), dataIndex: 'questionCount', width: 80 },
    {
      key: 'assigneeCount',
      title: t('exams.assignees'),
      dataIndex: 'assigneeCount',
      width: 90,
      render: (count: number, row) => <Typography.Link onClick={() => void navigate(`${ASSIGN_EXAM_PATH}?id=${row.id}`)}>{count}</Typography.Link>,
    },
    { key: 'updateTime', title: t('exams.updateTime'), dataIndex: 'updateTime', sortable: true, width: 165, defaultHidden: true },
    {
      key: 'actions',
      title: tl('list.actions'),
      fixed: 'right',
      width: 300,
      render: (_value, row) => (
        <RowActions
          edit={{ permission: EDIT, onClick: () => openEdit(row) }}
          del={{ permission: DEL, name: row.title, warning: t('exams.deleteWarning'), onConfirm: () => list.remove([row.id]) }}
        >
          <Permission roles={LIST}>
            <Button type="link" size="small" icon={<EyeOutlined />} onClick={() => void navigate(`${PREVIEW_EXAM_PATH}?id=${row.id}`)}>
              {t('exams.preview')}
            </Button>
          </Permission>
          <Permission roles={ASSIGN}>
            <Button type="link" size="small" icon={<UsergroupAddOutlined />} onClick={() => void navigate(`${ASSIGN_EXAM_PATH}?id=${row.id}`)}>
              {t('exams.assign')}
            </Button>
          </Permission>
          <Permission roles={MARK}>
            <Button type="link" size="small" icon={<FormOutlined />} onClick={() => void navigate(correctExamAddress(row.id))}>
              {t('exams.mark')}
            </Button>
          </Permission>
          <Permission roles={LIST}>
            <Button type="link" size="small" icon={<BarChartOutlined />} onClick={() => void navigate(reportExamAddress(row.id))}>
              {t('exams.report')}
            </Button>
          </Permission>
        </RowActions>
      ),
    },
  ];

  return (
    <ListPage<Exam, ExamFilter>
      list={list}
      rowKey="id"
      columns={columns}
      search={
        <SearchBar list={list}>
          <Form.Item name="q">
            <Input id="exam-search-q" allowClear placeholder={t('exams.search')} aria-label={t('exams.search')} style={{ width: 200, maxWidth: '100%' }} />
          </Form.Item>
          <Form.Item name="courseId">
            <Select
              id="exam-search-course"
              allowClear
              showSearch={{ optionFilterProp: 'label' }}
              placeholder={t('exams.anyCourse')}
              aria-label={t('exams.course')}
              loading={courses.isFetching}
              options={(courses.data ?? []).map((course) => ({ value: course.id, label: course.title }))}
              style={{ width: 200, maxWidth: '100%' }}
            />
          </Form.Item>
          <Form.Item name="status">
            <Select
              id="exam-search-status"
              allowClear
              placeholder={t('exams.anyStatus')}
              aria-label={t('exams.status')}
              options={EXAM_STATUSES.map((status) => ({ value: status, label: t(`exams.status.${status}`) }))}
              style={{ width: 130, maxWidth: '100%' }}
            />
          </Form.Item>
        </SearchBar>
      }
      add={{ permission: ADD, onClick: () => void navigate(EDIT_EXAM_PATH) }}
      edit={{ permission: EDIT, onClick: openEdit }}
      del={{ permission: DEL, rowName: (row) => row.title, warning: t('exams.deleteWarning') }}
    />
  );
}
