import type { EnrolMode, Term } from '@cloud-classroom/shared/courses';
import type { PermissionCheck } from '@cloud-classroom/shared/permission';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Form, Input, Tag } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useListMessages } from '../../components/list-page/list-page-messages';
import { ListPage, type ListColumn } from '../../components/list-page/list-page';
import { RowActions } from '../../components/list-page/row-actions';
import { SearchBar } from '../../components/list-page/search-bar';
import { useListPage } from '../../components/list-page/use-list-page';
import { HttpError } from '../../lib/http-client';
import { useCourseMessages } from './courses-messages';
import { courseQuery, coursesKeys, termList } from './courses-api';
import { SelectedCourseBanner } from './selected-course-banner';
import { COURSE_PICKER_PATH, useSelectedCourseStore, type SelectedCourse } from './selected-course-store';
import { TermFormDialog } from './term-form-dialog';
import { useDeleteRefusal } from './use-delete-refusal';

type TermFilter = { courseId: number; q?: string };

const ADD: readonly PermissionCheck[] = ['admin', 'course:add'];
const EDIT: readonly PermissionCheck[] = ['admin', 'course:edit'];
const DEL: readonly PermissionCheck[] = ['admin', 'course:del'];
const LIST: readonly PermissionCheck[] = ['admin', 'course:list'];

const MODE_COLORS: Record<EnrolMode, string> = { open: 'green', approval: 'gold', assigned: 'blue' };

type Dialog = { open: false } | { open: true; term?: Term };

/**
 * Courses → terms of the course chosen on the course list (the route guard sends people there
 * first). A kept-alive tab follows a new choice: the list is remade for each course.
 */
export default function TermListPage() {
  const course = useSelectedCourseStore((state) => state.course);
  if (course === undefined) return <SelectedCourseBanner on="terms" />;
  return <CourseTerms key={course.id} course={course} />;
}

function CourseTerms({ course }: { course: SelectedCourse }) {
  const t = useCourseMessages();
  const tl = useListMessages();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const refusal = useDeleteRefusal();
  const detail = useQuery(courseQuery(course.id));
  const list = useListPage<Term, TermFilter>({ query: termList, defaultSort: ['startAt,desc'], initialFilter: { courseId: course.id } });
  const [dialog, setDialog] = useState<Dialog>({ open: false });

  // A course's term count shows on the course list.
  const refreshCourses = () => void queryClient.invalidateQueries({ queryKey: coursesKeys.courses });

  const remove = async (terms: readonly Term[]) => {
    try {
      await list.remove(
        terms.map((term) => term.id),
        { silent: true },
      );
    } catch (error) {
      refusal(error, t('courses.term.refused'));
      return;
    }
    refreshCourses();
  };

  if (detail.error instanceof HttpError && detail.error.status === 404) {
    return (
      <Alert
        type="warning"
        showIcon
        title={t('courses.term.courseGone')}
        action={
          <Button size="small" onClick={() => void navigate(COURSE_PICKER_PATH)}>
            {t('courses.change')}
          </Button>
        }
      />
    );
  }

  const columns: ListColumn<Term>[] = [
    { key: 'name', title: t('courses.term.name'), dataIndex: 'name', sortable: true, width: 200, ellipsis: true },
    { key: 'startAt', title: t('courses.term.startAt'), dataIndex: 'startAt', sortable: true, width: 170 },
    { key: 'endAt', title: t('courses.term.endAt'), dataIndex: 'endAt', sortable: true, width: 170 },
    {
      key: 'capacity',
      title: t('courses.term.capacity'),
      dataIndex: 'capacity',
      align: 'center',
      render: (capacity: number | null) => capacity ?? t('courses.term.unlimited'),
    },
    {
      key: 'enrolMode',
      title: t('courses.term.enrolMode'),
      dataIndex: 'enrolMode',
      render: (mode: EnrolMode) => <Tag color={MODE_COLORS[mode]}>{t(`courses.term.mode.${mode}`)}</Tag>,
    },
    { key: 'enrolled', title: t('courses.term.enrolled'), dataIndex: 'enrolled', align: 'center' },
    { key: 'createTime', title: tl('list.createTime'), dataIndex: 'createTime', sortable: true, width: 170, defaultHidden: true },
    {
      key: 'actions',
      title: tl('list.actions'),
      fixed: 'right',
      width: 130,
      render: (_value, term) => (
        <RowActions
          edit={{ permission: EDIT, onClick: () => setDialog({ open: true, term }) }}
          del={{ permission: DEL, name: term.name, warning: t('courses.term.deleteWarning'), onConfirm: () => remove([term]) }}
        />
      ),
    },
  ];

  return (
    <div className="term-list-page">
      <SelectedCourseBanner on="terms" heading={t('courses.term.pageTitle', { name: detail.data?.title ?? course.name })} />
      <ListPage<Term, TermFilter>
        list={list}
        rowKey="id"
        columns={columns}
        search={
          <SearchBar list={list}>
            <Form.Item name="q">
              <Input id="term-search-q" allowClear placeholder={t('courses.term.search')} aria-label={t('courses.term.search')} style={{ width: 200, maxWidth: '100%' }} />
            </Form.Item>
          </SearchBar>
        }
        add={{ permission: ADD, onClick: () => setDialog({ open: true }) }}
        edit={{ permission: EDIT, onClick: (term) => setDialog({ open: true, term }) }}
        exportFile={{ permission: LIST, fileName: `${t('courses.term.exportName')}-${detail.data?.title ?? course.name}` }}
        del={{ permission: DEL, rowName: (row) => row.name, warning: t('courses.term.deleteWarning'), onConfirm: remove }}
      />
      {dialog.open && (
        <TermFormDialog
          courseId={course.id}
          term={dialog.term}
          onClose={() => setDialog({ open: false })}
          onSaved={() => {
            void list.refresh();
            refreshCourses();
          }}
        />
      )}
    </div>
  );
}
