import { CheckOutlined, CloseOutlined, UploadOutlined, UserAddOutlined } from '@ant-design/icons';
import {
  APPLICANT_SOURCES,
  APPLICANT_STATUSES,
  type Applicant,
  type ApplicantSource,
  type ApplicantStatus,
} from '@cloud-classroom/shared/applicants';
import type { PermissionCheck } from '@cloud-classroom/shared/permission';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Form, Input, Progress, Select, Switch, Typography } from 'antd';
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Permission } from '../../components/permission';
import { useListMessages } from '../../components/list-page/list-page-messages';
import { ListPage, type ListColumn } from '../../components/list-page/list-page';
import { RowActions } from '../../components/list-page/row-actions';
import { SearchBar } from '../../components/list-page/search-bar';
import { useListPage } from '../../components/list-page/use-list-page';
import { coursesKeys } from '../courses/courses-api';
import { SelectedCourseBanner } from '../courses/selected-course-banner';
import { useSelectedCourseStore, type SelectedCourse } from '../courses/selected-course-store';
import { OVERDUE_PARAM } from './applicant-paths';
import { ApplicantStatusTag } from './applicant-status-tag';
import { useApplicantMessages } from './applicants-messages';
import { applicantList, approveApplicants, courseTermsQuery } from './applicants-api';
import { TermFilter } from './term-filter';
import { EnrolDialog } from './enrol-dialog';
import { ImportDialog } from './import-dialog';
import { RejectDialog } from './reject-dialog';

export const EDIT_APPLICANT_PATH = '/edu/edit-applicant';

type ApplicantFilter = {
  courseId: number;
  termId?: number;
  q?: string;
  status?: ApplicantStatus;
  source?: ApplicantSource;
  overdue?: true;
};

const ADD: readonly PermissionCheck[] = ['admin', 'applicant:add'];
const EDIT: readonly PermissionCheck[] = ['admin', 'applicant:edit'];
const DEL: readonly PermissionCheck[] = ['admin', 'applicant:del'];
const LIST: readonly PermissionCheck[] = ['admin', 'applicant:list'];

type Dialog = 'none' | 'enrol' | 'import' | 'reject';

/** The "overdue only" filter: off leaves the filter out rather than asking for the punctual ones. */
function OverdueSwitch({ value, onChange, id }: { value?: true; onChange?: (value: true | undefined) => void; id?: string }) {
  const t = useApplicantMessages();
  return <Switch id={id} aria-label={t('applicants.overdueOnly')} checked={value === true} onChange={(checked) => onChange?.(checked ? true : undefined)} />;
}

/**
 * Courses → applicants: the people in the terms of the course chosen on the course list (the
 * route guard sends people there first), who applied, was assigned, imported or enrolled by
 * staff; staff approve, reject, enrol, import and edit them. A new choice remakes the list.
 */
export default function ApplicantListPage() {
  const course = useSelectedCourseStore((state) => state.course);
  if (course === undefined) return <SelectedCourseBanner on="applicants" />;
  return <CourseApplicants key={course.id} course={course} />;
}

function CourseApplicants({ course }: { course: SelectedCourse }) {
  const t = useApplicantMessages();
  const tl = useListMessages();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { message, modal } = App.useApp();
  const terms = useQuery(courseTermsQuery(course.id));
  const [params] = useSearchParams();
  // The dashboard's overdue figures open the list with the "overdue only" filter on.
  const list = useListPage<Applicant, ApplicantFilter>({
    query: applicantList,
    defaultSort: ['createTime,desc'],
    initialFilter: params.get(OVERDUE_PARAM) === '1' ? { courseId: course.id, overdue: true } : { courseId: course.id },
  });
  const [dialog, setDialog] = useState<Dialog>('none');
  const selectedIds = list.selectedRows.map((row) => row.id);

  // The terms' enrolled counts show on the term list.
  const refreshTerms = () => void queryClient.invalidateQueries({ queryKey: coursesKeys.terms });
  const refreshAll = () => {
    void list.refresh();
    refreshTerms();
  };

  const approve = () =>
    modal.confirm({
      title: t('applicants.approveTitle'),
      content: t('applicants.approveConfirm', { count: selectedIds.length }),
      okText: tl('common.confirm'),
      cancelText: tl('common.cancel'),
      onOk: async () => {
        await approveApplicants(selectedIds);
        message.success(t('applicants.approved'));
        refreshAll();
      },
    });

  const openEdit = (applicant: Applicant) => void navigate(`${EDIT_APPLICANT_PATH}?id=${applicant.id}`, { state: { applicant } });

  const columns: ListColumn<Applicant>[] = [
    {
      key: 'person',
      title: t('applicants.person'),
      width: 170,
      render: (_value, row) => (
        <div className="applicant-person">
          <div>{row.nickName}</div>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {row.username}
          </Typography.Text>
        </div>
      ),
    },
    { key: 'deptName', title: t('applicants.dept'), dataIndex: 'deptName', width: 120, ellipsis: true, render: (name: string | null) => name ?? '—' },
    { key: 'termName', title: t('applicants.term'), dataIndex: 'termName', width: 140, ellipsis: true },
    {
      key: 'status',
      title: t('applicants.status'),
      dataIndex: 'status',
      sortable: true,
      width: 110,
      render: (status: ApplicantStatus) => <ApplicantStatusTag status={status} />,
    },
    { key: 'source', title: t('applicants.source'), dataIndex: 'source', width: 110, render: (source: ApplicantSource) => t(`applicants.source.${source}`) },
    {
      key: 'dueAt',
      title: t('applicants.dueAt'),
      dataIndex: 'dueAt',
      sortable: true,
      width: 170,
      render: (dueAt: string | null, row) =>
        dueAt === null ? (
          <Typography.Text type="secondary">{t('applicants.noDue')}</Typography.Text>
        ) : row.overdue ? (
          <Typography.Text type="danger" title={t('applicants.overdue')}>
            {dueAt} · {t('applicants.overdue')}
          </Typography.Text>
        ) : (
          dueAt
        ),
    },
    {
      key: 'percent',
      title: t('applicants.progress'),
      dataIndex: 'percent',
      width: 140,
      render: (percent: number, row) => (
        // antd's exception status swaps the percent for an icon: an overdue bar is only coloured.
        <Progress percent={percent} size="small" status={row.status === 'completed' ? 'success' : 'normal'} strokeColor={row.overdue ? '#ff4d4f' : undefined} />
      ),
    },
    { key: 'reason', title: t('applicants.reason'), dataIndex: 'reason', width: 130, ellipsis: true, render: (reason: string | null) => reason ?? '' },
    { key: 'createTime', title: t('applicants.createTime'), dataIndex: 'createTime', sortable: true, width: 165 },
    {
      key: 'actions',
      title: tl('list.actions'),
      fixed: 'right',
      width: 130,
      render: (_value, row) => (
        <RowActions
          edit={{ permission: EDIT, onClick: () => openEdit(row) }}
          del={{ permission: DEL, name: row.nickName, warning: t('applicants.deleteWarning'), onConfirm: () => list.remove([row.id]).then(refreshTerms) }}
        />
      ),
    },
  ];

  // The dialogs start on the term the list shows, or on the course's only term.
  const currentTerm = list.filter.termId ?? (terms.data?.length === 1 ? terms.data[0]?.id : undefined);

  return (
    <div className="applicant-list-page">
      <SelectedCourseBanner on="applicants" heading={t('applicants.pageTitle', { name: course.name })} />
      <ListPage<Applicant, ApplicantFilter>
        list={list}
        rowKey="id"
        columns={columns}
        search={
          <SearchBar list={list}>
            <TermFilter id="applicant-search-term" label={t('applicants.term')} terms={terms} width={180} />
            <Form.Item name="q">
              <Input id="applicant-search-q" allowClear placeholder={t('applicants.search')} aria-label={t('applicants.search')} style={{ width: 200, maxWidth: '100%' }} />
            </Form.Item>
            <Form.Item name="status">
              <Select
                id="applicant-search-status"
                allowClear
                placeholder={t('applicants.anyStatus')}
                aria-label={t('applicants.status')}
                options={APPLICANT_STATUSES.map((status) => ({ value: status, label: t(`applicants.status.${status}`) }))}
                style={{ width: 130, maxWidth: '100%' }}
              />
            </Form.Item>
            <Form.Item name="source">
              <Select
                id="applicant-search-source"
                allowClear
                placeholder={t('applicants.anySource')}
                aria-label={t('applicants.source')}
                options={APPLICANT_SOURCES.map((source) => ({ value: source, label: t(`applicants.source.${source}`) }))}
                style={{ width: 130, maxWidth: '100%' }}
              />
            </Form.Item>
            <Form.Item name="overdue" label={t('applicants.overdueOnly')}>
              <OverdueSwitch id="applicant-search-overdue" />
            </Form.Item>
          </SearchBar>
        }
        edit={{ permission: EDIT, onClick: openEdit }}
        del={{
          permission: DEL,
          rowName: (row) => row.nickName,
          warning: t('applicants.deleteWarning'),
          onConfirm: (rows) => list.remove(rows.map((row) => row.id)).then(refreshTerms),
        }}
        exportFile={{ permission: LIST, fileName: `${t('applicants.exportName')}-${course.name}` }}
        toolbarExtra={
          <>
            <Permission roles={ADD}>
              <Button type="primary" icon={<UserAddOutlined />} onClick={() => setDialog('enrol')}>
                {t('applicants.enrol')}
              </Button>
            </Permission>
            <Permission roles={ADD}>
              <Button icon={<UploadOutlined />} onClick={() => setDialog('import')}>
                {t('applicants.import')}
              </Button>
            </Permission>
            <Permission roles={EDIT}>
              <Button icon={<CheckOutlined />} disabled={selectedIds.length === 0} onClick={approve}>
                {t('applicants.approve')}
              </Button>
            </Permission>
            <Permission roles={EDIT}>
              <Button danger icon={<CloseOutlined />} disabled={selectedIds.length === 0} onClick={() => setDialog('reject')}>
                {t('applicants.reject')}
              </Button>
            </Permission>
          </>
        }
      />
      {dialog === 'enrol' && <EnrolDialog terms={terms.data ?? []} termId={currentTerm} onClose={() => setDialog('none')} onEnrolled={refreshAll} />}
      {dialog === 'import' && <ImportDialog terms={terms.data ?? []} termId={currentTerm} onClose={() => setDialog('none')} onImported={refreshAll} />}
      {dialog === 'reject' && <RejectDialog ids={selectedIds} onClose={() => setDialog('none')} onRejected={refreshAll} />}
    </div>
  );
}
