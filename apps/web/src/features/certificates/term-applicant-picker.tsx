import { ENROLLED_STATUSES, type Applicant, type ApplicantStatus } from '@cloud-classroom/shared/applicants';
import { MAX_PAGE_SIZE } from '@cloud-classroom/shared/http';
import { useQuery } from '@tanstack/react-query';
import { Button, Empty, Flex, Input, Progress, Typography, type TableColumnType } from 'antd';
import { useState, type Key } from 'react';
import { ListTable } from '../../components/list-page/list-table';
import { ApplicantStatusTag } from '../applicants/applicant-status-tag';
import { applicantList } from '../applicants/applicants-api';
import { useCertificateMessages } from './certificates-messages';

const enrolled = (applicant: Applicant) => (ENROLLED_STATUSES as readonly ApplicantStatus[]).includes(applicant.status);

/** A term's applicants, every one at once: a term holds hundreds, not thousands, and "all completed" must see them all. */
const termApplicantsQuery = (termId: number) => ({
  ...applicantList.page({ termId, page: 0, size: MAX_PAGE_SIZE, sort: 'id,asc' }),
  // Another term's people must never stand in for this one's while it loads.
  placeholderData: undefined,
});

export type TermApplicantPickerProps = {
  termId: number | undefined;
  /** The chosen applicants' (enrolments') ids; a form item gives value and onChange. */
  value?: number[];
  onChange?: (ids: number[]) => void;
  id?: string;
};

/**
 * Picks enrolments of one term from a table of its applicants (name, department, status,
 * progress), for issuing to them; only enrolled ones can be picked, as the server issues to no
 * one else. "Select all completed" adds everyone who finished the course.
 */
export function TermApplicantPicker({ termId, value = [], onChange, id }: TermApplicantPickerProps) {
  const t = useCertificateMessages();
  const [filter, setFilter] = useState('');
  const applicants = useQuery({ ...termApplicantsQuery(termId ?? 0), enabled: termId !== undefined });

  if (termId === undefined) return <Typography.Text type="secondary">{t('issue.chooseTermFirst')}</Typography.Text>;

  const rows = applicants.data?.content ?? [];
  const needle = filter.trim().toLowerCase();
  const shown = needle === '' ? rows : rows.filter((row) => row.nickName.toLowerCase().includes(needle) || row.username.toLowerCase().includes(needle));
  const completed = rows.filter((row) => row.status === 'completed').map((row) => row.id);

  // Name and status first, the username under the name: on a phone they show before any scrolling.
  const columns: TableColumnType<Applicant>[] = [
    {
      key: 'name',
      title: t('issue.applicant.name'),
      width: 140,
      render: (_value, row) => (
        <>
          <div>{row.nickName}</div>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {row.username}
          </Typography.Text>
        </>
      ),
    },
    { key: 'status', title: t('issue.applicant.status'), dataIndex: 'status', width: 100, render: (status: ApplicantStatus) => <ApplicantStatusTag status={status} /> },
    {
      key: 'progress',
      title: t('issue.applicant.progress'),
      dataIndex: 'percent',
      width: 130,
      render: (percent: number) => <Progress percent={percent} size="small" style={{ margin: 0, minWidth: 100 }} />,
    },
    { key: 'dept', title: t('issue.applicant.dept'), dataIndex: 'deptName', width: 120, render: (name: string | null) => name ?? '—' },
    { key: 'completedAt', title: t('issue.applicant.completedAt'), dataIndex: 'completedAt', width: 165, render: (at: string | null) => at ?? '—' },
  ];

  return (
    <div id={id} className="cert-issue__applicants">
      <Flex wrap gap={8} align="center" style={{ marginBottom: 8 }}>
        <Input
          allowClear
          value={filter}
          onChange={(event) => setFilter(event.target.value)}
          placeholder={t('issue.applicantSearch')}
          aria-label={t('issue.applicantSearch')}
          style={{ width: 200, maxWidth: '100%' }}
        />
        <Button disabled={completed.length === 0} onClick={() => onChange?.([...new Set([...value, ...completed])])}>
          {t('issue.selectCompleted')}
        </Button>
        <Button disabled={value.length === 0} onClick={() => onChange?.([])}>
          {t('issue.clearSelection')}
        </Button>
        <Typography.Text type="secondary">{t('issue.selectedN', { count: value.length })}</Typography.Text>
      </Flex>
      <ListTable<Applicant>
        size="small"
        rowKey="id"
        columns={columns}
        dataSource={shown}
        loading={applicants.isFetching}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('issue.noApplicants')} /> }}
        pagination={{ pageSize: 10, size: 'small', showSizeChanger: false, hideOnSinglePage: true }}
        rowSelection={{
          selectedRowKeys: value,
          // Rows filtered out or on another page stay chosen.
          preserveSelectedRowKeys: true,
          onChange: (keys: Key[]) => onChange?.(keys.map(Number)),
          getCheckboxProps: (row) => ({ disabled: !enrolled(row), 'aria-label': row.nickName }),
        }}
      />
    </div>
  );
}
