import type { AssignmentRule, RuleTarget } from '@cloud-classroom/shared/applicants';
import type { PermissionCheck } from '@cloud-classroom/shared/permission';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Tag, Typography } from 'antd';
import { useState } from 'react';
import { useListMessages } from '../../components/list-page/list-page-messages';
import { ListPage, type ListColumn } from '../../components/list-page/list-page';
import { RowActions } from '../../components/list-page/row-actions';
import { SearchBar } from '../../components/list-page/search-bar';
import { useListPage } from '../../components/list-page/use-list-page';
import { SelectedCourseBanner } from '../courses/selected-course-banner';
import { useSelectedCourseStore, type SelectedCourse } from '../courses/selected-course-store';
import { useApplicantMessages } from './applicants-messages';
import { applicantsKeys, courseTermsQuery, ruleList } from './applicants-api';
import { TermFilter } from './term-filter';
import { RuleFormDialog } from './rule-form-dialog';

type RuleFilter = { courseId: number; termId?: number };

const ADD: readonly PermissionCheck[] = ['admin', 'applicant:add'];
const EDIT: readonly PermissionCheck[] = ['admin', 'applicant:edit'];
const DEL: readonly PermissionCheck[] = ['admin', 'applicant:del'];

const TARGET_COLORS: Record<RuleTarget, string> = { dept: 'blue', role: 'purple', users: 'cyan' };
/** Names shown in a row before "and n more". */
const SHOWN_NAMES = 3;

type Dialog = { open: false } | { open: true; rule?: AssignmentRule };

/**
 * Courses → assignment rules of the chosen course's terms: departments (with their subtrees and
 * whoever joins them later), roles or named people enrolled into a term. A new choice of course
 * remakes the list.
 */
export default function RuleListPage() {
  const course = useSelectedCourseStore((state) => state.course);
  if (course === undefined) return <SelectedCourseBanner on="rules" />;
  return <CourseRules key={course.id} course={course} />;
}

function CourseRules({ course }: { course: SelectedCourse }) {
  const t = useApplicantMessages();
  const tl = useListMessages();
  const queryClient = useQueryClient();
  const terms = useQuery(courseTermsQuery(course.id));
  const list = useListPage<AssignmentRule, RuleFilter>({ query: ruleList, defaultSort: ['id,desc'], initialFilter: { courseId: course.id } });
  const [dialog, setDialog] = useState<Dialog>({ open: false });

  // A rule enrols people as it is saved: the applicants' list changes with it.
  const refreshApplicants = () => void queryClient.invalidateQueries({ queryKey: applicantsKeys.applicants });

  const remove = (rules: readonly AssignmentRule[]) => list.remove(rules.map((rule) => rule.id));

  const columns: ListColumn<AssignmentRule>[] = [
    {
      key: 'target',
      title: t('rules.target'),
      dataIndex: 'target',
      width: 120,
      render: (target: RuleTarget) => <Tag color={TARGET_COLORS[target]}>{t(`rules.target.${target}`)}</Tag>,
    },
    {
      key: 'names',
      title: t('rules.names'),
      dataIndex: 'names',
      width: 260,
      render: (names: string[], rule: AssignmentRule) => (
        <span title={names.join(', ')}>
          {names.slice(0, SHOWN_NAMES).join(', ')}
          {names.length > SHOWN_NAMES && <Typography.Text type="secondary"> {t('rules.more', { count: names.length - SHOWN_NAMES })}</Typography.Text>}
          {rule.othersOutsideScope > 0 && <Typography.Text type="secondary"> {t('rules.outsideScope', { count: rule.othersOutsideScope })}</Typography.Text>}
        </span>
      ),
    },
    { key: 'termName', title: t('rules.term'), dataIndex: 'termName', width: 160, ellipsis: true, render: (name: string | null) => name ?? '—' },
    {
      key: 'dueAt',
      title: t('rules.dueAt'),
      dataIndex: 'dueAt',
      width: 170,
      render: (dueAt: string | null) => dueAt ?? <Typography.Text type="secondary">{t('applicants.noDue')}</Typography.Text>,
    },
    { key: 'applicantCount', title: t('rules.applicantCount'), dataIndex: 'applicantCount', align: 'center', width: 110 },
    { key: 'createTime', title: tl('list.createTime'), dataIndex: 'createTime', sortable: true, width: 170 },
    {
      key: 'actions',
      title: tl('list.actions'),
      fixed: 'right',
      width: 130,
      render: (_value, rule) => (
        <RowActions
          edit={{ permission: EDIT, onClick: () => setDialog({ open: true, rule }) }}
          del={{ permission: DEL, warning: t('rules.deleteWarning'), onConfirm: () => remove([rule]) }}
        />
      ),
    },
  ];

  return (
    <div className="rule-list-page">
      <SelectedCourseBanner on="rules" heading={t('rules.pageTitle', { name: course.name })} />
      <ListPage<AssignmentRule, RuleFilter>
        list={list}
        rowKey="id"
        columns={columns}
        search={
          <SearchBar list={list}>
            <TermFilter id="rule-search-term" label={t('rules.term')} terms={terms} width={200} />
          </SearchBar>
        }
        add={{ permission: ADD, onClick: () => setDialog({ open: true }) }}
        edit={{ permission: EDIT, onClick: (rule) => setDialog({ open: true, rule }) }}
        del={{ permission: DEL, warning: t('rules.deleteWarning'), onConfirm: remove }}
      />
      {dialog.open && (
        <RuleFormDialog
          terms={terms.data ?? []}
          rule={dialog.rule}
          onClose={() => setDialog({ open: false })}
          onSaved={() => {
            void list.refresh();
            refreshApplicants();
          }}
        />
      )}
    </div>
  );
}
