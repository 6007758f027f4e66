import { ArrowLeftOutlined, EditOutlined, SettingOutlined, UsergroupAddOutlined } from '@ant-design/icons';
import type { ExamAssignee, ExamRule } from '@cloud-classroom/shared/exams';
import type { PermissionCheck } from '@cloud-classroom/shared/permission';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Empty, Flex, Form, Input, Result, Space, Switch, Table, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Permission } from '../../components/permission';
import { useListMessages } from '../../components/list-page/list-page-messages';
import { ListPage, type ListColumn } from '../../components/list-page/list-page';
import { RowActions } from '../../components/list-page/row-actions';
import { SearchBar } from '../../components/list-page/search-bar';
import { useConfirmDelete } from '../../components/list-page/use-confirm-delete';
import { useListPage } from '../../components/list-page/use-list-page';
import { HttpError } from '../../lib/http-client';
import { AssignDialog } from './assign-dialog';
import { ExamStatusTag, windowText } from './exam-status-tag';
import { EDIT_EXAM_PATH, EXAMS_LIST_PATH, OVERDUE_PARAM } from './exam-paths';
import { assigneeList, deleteExamRules, examQuery, examRulesQuery, examsKeys } from './exams-api';
import { useExamMessages, type ExamTranslate } from './exams-messages';
import { OverrideDialog } from './override-dialog';
import { NoExamChosen, useExamIdParam } from './exam-id-param';
import './exams.css';

// The server lets whoever may add or edit exams assign them.
const ASSIGN: readonly PermissionCheck[] = ['admin', 'exam:add', 'exam:edit'];
const EDIT: readonly PermissionCheck[] = ['admin', 'exam:edit'];

type AssigneeFilter = { q?: string; overdue?: true };

/** The "overdue only" filter: off leaves the filter out rather than asking for the punctual ones. */
function OverdueSwitch({ value, onChange, id }: { value?: true; onChange?: (value: true | undefined) => void; id?: string }) {
  const t = useExamMessages();
  return <Switch id={id} aria-label={t('assignees.overdueOnly')} checked={value === true} onChange={(checked) => onChange?.(checked ? true : undefined)} />;
}
type Dialog = { kind: 'none' } | { kind: 'assign' } | { kind: 'override'; rows: ExamAssignee[] };

/** An assignee's personal terms, one short tag each; none when they have the exam's. */
function Overrides({ row, t }: { row: ExamAssignee; t: ExamTranslate }) {
  const tags = [
    row.extraMinutes > 0 && t('assignees.plusMinutes', { count: row.extraMinutes }),
    row.extraAttempts > 0 && t('assignees.plusAttempts', { count: row.extraAttempts }),
    (row.openAt !== null || row.closeAt !== null) && `${t('assignees.ownWindow')}: ${windowText(row, t)}`,
  ].filter((tag): tag is string => typeof tag === 'string');
  if (tags.length === 0) return <Typography.Text type="secondary">{t('assignees.noOverrides')}</Typography.Text>;
  return (
    <Space size={4} wrap>
      {tags.map((tag) => (
        <Tag key={tag} color="orange">
          {tag}
        </Tag>
      ))}
    </Space>
  );
}

function RuleSection({ examId, onChanged }: { examId: number; onChanged: () => void }) {
  const t = useExamMessages();
  const { message } = App.useApp();
  const confirmDelete = useConfirmDelete();
  const rules = useQuery(examRulesQuery(examId));
  return (
    <Card size="small" title={t('assignees.rules')} className="exam-rules">
      <Typography.Paragraph type="secondary">{t('assignees.rulesHint')}</Typography.Paragraph>
      <Table<ExamRule>
        size="small"
        rowKey="id"
        loading={rules.isFetching}
        dataSource={rules.data ?? []}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('assignees.noRules')} /> }}
        columns={[
          { key: 'target', title: t('assignees.target'), dataIndex: 'target', width: 110, render: (target: ExamRule['target']) => <Tag>{t(`assignees.target.${target}`)}</Tag> },
          {
            key: 'names',
            title: t('assignees.ruleNames'),
            dataIndex: 'names',
            render: (names: string[]) => (
              <Typography.Text ellipsis={{ tooltip: names.join(', ') }} style={{ maxWidth: 320 }}>
                {names.join(', ')}
              </Typography.Text>
            ),
          },
          { key: 'dueAt', title: t('assignees.dueAt'), dataIndex: 'dueAt', width: 160, render: (dueAt: string | null) => dueAt ?? t('assignees.noDue') },
          { key: 'assigneeCount', title: t('assignees.ruleCount'), dataIndex: 'assigneeCount', width: 90 },
          { key: 'createTime', title: t('assignees.ruleCreated'), dataIndex: 'createTime', width: 165 },
          {
            key: 'actions',
            title: t('assignees.actions'),
            width: 90,
            render: (_value, rule) => (
              <Permission roles={ASSIGN}>
                <Button
                  type="link"
                  size="small"
                  danger
                  onClick={() =>
                    confirmDelete(rule.names.join(', ') || 1, async () => {
                      await deleteExamRules(examId, [rule.id]);
                      message.success(t('assignees.ruleRemoved'));
                      onChanged();
                    }, t('assignees.ruleRemoveWarning'))
                  }
                >
                  {t('assignees.remove')}
                </Button>
              </Permission>
            ),
          },
        ]}
      />
    </Card>
  );
}

function ExamAssignees({ examId }: { examId: number }) {
  const t = useExamMessages();
  const tl = useListMessages();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const exam = useQuery(examQuery(examId));
  const query = useMemo(() => assigneeList(examId), [examId]);
  const [params] = useSearchParams();
  const list = useListPage<ExamAssignee, AssigneeFilter>({ query, defaultSort: ['createTime,desc'], initialFilter: params.get(OVERDUE_PARAM) === '1' ? { overdue: true } : {} });
  const [dialog, setDialog] = useState<Dialog>({ kind: 'none' });

  // The list's count of assignees, and this exam's rules and people, change together.
  const refreshAll = () => {
    list.setSelection([], []);
    void queryClient.invalidateQueries({ queryKey: examsKeys.assignees(examId) });
    void queryClient.invalidateQueries({ queryKey: examsKeys.exams });
  };

  if (exam.error instanceof HttpError && exam.error.status === 404) {
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

  const columns: ListColumn<ExamAssignee>[] = [
    {
      key: 'person',
      title: t('assignees.person'),
      width: 170,
      render: (_value, row) => (
        <div>
          <div>{row.nickName}</div>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {row.username}
          </Typography.Text>
        </div>
      ),
    },
    { key: 'deptName', title: t('assignees.dept'), dataIndex: 'deptName', width: 120, ellipsis: true, render: (name: string | null) => name ?? '—' },
    {
      key: 'source',
      title: t('assignees.source'),
      dataIndex: 'source',
      width: 100,
      render: (source: ExamAssignee['source']) => <Tag color={source === 'rule' ? 'purple' : 'blue'}>{t(`assignees.source.${source}`)}</Tag>,
    },
    { key: 'dueAt', title: t('assignees.dueAt'), dataIndex: 'dueAt', width: 165, render: (dueAt: string | null) => dueAt ?? <Typography.Text type="secondary">{t('assignees.noDue')}</Typography.Text> },
    { key: 'overrides', title: t('assignees.overrides'), width: 220, render: (_value, row) => <Overrides row={row} t={t} /> },
    { key: 'createTime', title: t('assignees.createTime'), dataIndex: 'createTime', sortable: true, width: 165 },
    {
      key: 'actions',
      title: tl('list.actions'),
      fixed: 'right',
      width: 160,
      render: (_value, row) => (
        <RowActions del={{ permission: ASSIGN, name: row.nickName, warning: t('assignees.removeWarning'), onConfirm: () => list.remove([row.id]).then(refreshAll) }}>
          <Permission roles={ASSIGN}>
            <Button type="link" size="small" onClick={() => setDialog({ kind: 'override', rows: [row] })}>
              {t('assignees.override')}
            </Button>
          </Permission>
        </RowActions>
      ),
    },
  ];

  return (
    <div className="exam-assignees">
      <Flex justify="space-between" align="center" wrap gap={8} style={{ marginBottom: 12 }}>
        <div>
          <Typography.Title level={4} style={{ margin: 0 }}>
            {t('assignees.pageTitle', { title: exam.data?.title ?? '…' })}
          </Typography.Title>
          {exam.data !== undefined && (
            <Space size={8} wrap className="exam-assignees__facts">
              <ExamStatusTag status={exam.data.status} />
              <Typography.Text type="secondary">{windowText(exam.data, t)}</Typography.Text>
            </Space>
          )}
        </div>
        <Space wrap>
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
      <ListPage<ExamAssignee, AssigneeFilter>
        list={list}
        rowKey="id"
        columns={columns}
        search={
          <SearchBar list={list}>
            <Form.Item name="q">
              <Input id="assignee-search-q" allowClear placeholder={t('assignees.search')} aria-label={t('assignees.search')} style={{ width: 220, maxWidth: '100%' }} />
            </Form.Item>
            <Form.Item name="overdue" label={t('assignees.overdueOnly')}>
              <OverdueSwitch id="assignee-search-overdue" />
            </Form.Item>
          </SearchBar>
        }
        del={{
          permission: ASSIGN,
          rowName: (row) => row.nickName,
          warning: t('assignees.removeWarning'),
          onConfirm: (rows) => list.remove(rows.map((row) => row.id)).then(refreshAll),
        }}
        toolbarExtra={
          <>
            <Permission roles={ASSIGN}>
              <Button type="primary" icon={<UsergroupAddOutlined />} onClick={() => setDialog({ kind: 'assign' })}>
                {t('exams.assign')}
              </Button>
            </Permission>
            <Permission roles={ASSIGN}>
              <Button icon={<SettingOutlined />} disabled={list.selectedRows.length === 0} onClick={() => setDialog({ kind: 'override', rows: list.selectedRows })}>
                {t('assignees.override')}
              </Button>
            </Permission>
          </>
        }
      />
      <RuleSection examId={examId} onChanged={refreshAll} />
      {dialog.kind === 'assign' && <AssignDialog examId={examId} onClose={() => setDialog({ kind: 'none' })} onAssigned={refreshAll} />}
      {dialog.kind === 'override' && <OverrideDialog examId={examId} assignees={dialog.rows} onClose={() => setDialog({ kind: 'none' })} onSaved={refreshAll} />}
    </div>
  );
}

/** /edu/applicant-exam?id=<exam>: who is assigned the exam, with their personal terms, and the rules assigning it. */
export default function ExamAssigneePage() {
  const id = useExamIdParam();
  if (id === undefined) return <NoExamChosen />;
  return <ExamAssignees key={id} examId={id} />;
}
