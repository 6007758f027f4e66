import { COURSE_STATUSES, type Course, type CourseStatus } from '@cloud-classroom/shared/courses';
import type { PermissionCheck } from '@cloud-classroom/shared/permission';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Form, Input, Select, Space, Tag, Tooltip } from 'antd';
import { useState } from 'react';
import { useListMessages } from '../../components/list-page/list-page-messages';
import { ListPage, type ListColumn } from '../../components/list-page/list-page';
import { RowActions } from '../../components/list-page/row-actions';
import { SearchBar } from '../../components/list-page/search-bar';
import { useListPage } from '../../components/list-page/use-list-page';
import { Permission } from '../../components/permission';
import { CategoryTreeSelect } from './category-tree-select';
import { CourseCover } from './course-cover';
import { CourseFormDialog } from './course-form-dialog';
import { useCourseMessages } from './courses-messages';
import { courseList, coursesKeys, courseUpdateOf, updateCourse } from './courses-api';
import { SelectedCourseBanner } from './selected-course-banner';
import { useSelectedCourseStore } from './selected-course-store';
import { useDeleteRefusal } from './use-delete-refusal';
import './course-list-page.css';

type CourseFilter = { q?: string; categoryId?: number; status?: CourseStatus };

const ADD: readonly PermissionCheck[] = ['admin', 'course:add'];
const EDIT: readonly PermissionCheck[] = ['admin', 'course:edit'];
const DEL: readonly PermissionCheck[] = ['admin', 'course:del'];
const LIST: readonly PermissionCheck[] = ['admin', 'course:list'];

const STATUS_COLORS: Record<CourseStatus, string> = { draft: 'default', published: 'green', archived: 'orange' };

/** The status a course's quick action moves it to: drafts and archived courses are published, published ones archived. */
const nextStatus = (status: CourseStatus): CourseStatus => (status === 'published' ? 'archived' : 'published');

type Dialog = { open: false } | { open: true; course?: Course };

/**
 * Courses → course list: search, add / edit / publish / archive / delete / export, and the choice
 * of the course whose terms and outline the other course pages work on.
 */
export default function CourseListPage() {
  const t = useCourseMessages();
  const tl = useListMessages();
  const { modal, message } = App.useApp();
  const queryClient = useQueryClient();
  const refusal = useDeleteRefusal();
  const selectedCourse = useSelectedCourseStore((state) => state.course);
  const select = useSelectedCourseStore((state) => state.select);
  const list = useListPage<Course, CourseFilter>({ query: courseList, defaultSort: ['updateTime,desc'] });
  const [dialog, setDialog] = useState<Dialog>({ open: false });

  const choose = (course: Course) => select({ id: course.id, name: course.title });
  // Course counts per category change with every course write.
  const refreshCategories = () => void queryClient.invalidateQueries({ queryKey: coursesKeys.categories });

  const remove = async (courses: readonly Course[]) => {
    const ids = courses.map((course) => course.id);
    try {
      await list.remove(ids, { silent: true });
    } catch (error) {
      refusal(error, t('courses.refused'));
      return;
    }
    if (selectedCourse !== undefined && ids.includes(selectedCourse.id)) select(undefined);
    refreshCategories();
  };

  const confirmStatus = (course: Course) => {
    const status = nextStatus(course.status);
    const publishing = status === 'published';
    modal.confirm({
      title: t(publishing ? 'courses.publishTitle' : 'courses.archiveTitle'),
      content: t(publishing ? 'courses.publishConfirm' : 'courses.archiveConfirm', { name: course.title }),
      okText: tl('common.confirm'),
      cancelText: tl('common.cancel'),
      onOk: async () => {
        try {
          await updateCourse(courseUpdateOf(course, { status }));
        } catch {
          return; // The http client has shown why.
        }
        message.success(t(publishing ? 'courses.published' : 'courses.archived'));
        await list.refresh();
      },
    });
  };

  const columns: ListColumn<Course>[] = [
    {
      key: 'cover',
      title: t('courses.cover'),
      dataIndex: 'cover',
      width: 88,
      render: (cover: number | null, course) => <CourseCover media={cover} width={64} alt={course.title} />,
    },
    {
      key: 'title',
      title: t('courses.title'),
      dataIndex: 'title',
      sortable: true,
      width: 240,
      render: (title: string, course) => (
        <Space size={4} wrap>
          <Tooltip title={t('courses.manageHint')}>
            <Button type="link" size="small" className="course-list-title" onClick={() => choose(course)}>
              {title}
            </Button>
          </Tooltip>
          {course.id === selectedCourse?.id && <Tag color="blue">{t('courses.selected')}</Tag>}
        </Space>
      ),
    },
    { key: 'category', title: t('courses.category'), dataIndex: 'categoryName', render: (name: string | null) => name ?? t('courses.uncategorised') },
    {
      key: 'status',
      title: t('courses.status'),
      dataIndex: 'status',
      sortable: true,
      render: (status: CourseStatus) => <Tag color={STATUS_COLORS[status]}>{t(`courses.status.${status}`)}</Tag>,
    },
    {
      key: 'required',
      title: t('courses.required'),
      dataIndex: 'required',
      sortable: true,
      render: (required: boolean) => <Tag color={required ? 'blue' : 'default'}>{t(required ? 'courses.required.true' : 'courses.required.false')}</Tag>,
    },
    { key: 'lessonCount', title: t('courses.lessons'), dataIndex: 'lessonCount', align: 'center' },
    { key: 'termCount', title: t('courses.terms'), dataIndex: 'termCount', align: 'center' },
    { key: 'owner', title: t('courses.owner'), dataIndex: 'ownerName', render: (name: string | null) => name ?? '—' },
    { key: 'updateTime', title: t('courses.updateTime'), dataIndex: 'updateTime', sortable: true, width: 170 },
    {
      key: 'actions',
      title: tl('list.actions'),
      fixed: 'right',
      render: (_value, course) => (
        <RowActions
          edit={{ permission: EDIT, onClick: () => setDialog({ open: true, course }) }}
          del={{ permission: DEL, name: course.title, warning: t('courses.deleteWarning'), onConfirm: () => remove([course]) }}
        >
          <Button type="link" size="small" onClick={() => choose(course)}>
            {t('courses.manage')}
          </Button>
          <Permission roles={EDIT}>
            <Button type="link" size="small" onClick={() => confirmStatus(course)}>
              {t(nextStatus(course.status) === 'published' ? 'courses.publish' : 'courses.archive')}
            </Button>
          </Permission>
        </RowActions>
      ),
    },
  ];

  return (
    <div className="course-list-page">
      <SelectedCourseBanner on="course-list" />
      <ListPage<Course, CourseFilter>
        list={list}
        rowKey="id"
        columns={columns}
        search={
          <SearchBar list={list}>
            {/* Own ids: the dialog's form has fields of the same names, and antd derives ids from names. */}
            <Form.Item name="q">
              <Input id="course-search-q" allowClear placeholder={t('courses.search')} aria-label={t('courses.search')} style={{ width: 220, maxWidth: '100%' }} />
            </Form.Item>
            <Form.Item name="categoryId">
              <CategoryTreeSelect
                id="course-search-category"
                allowClear
                placeholder={t('courses.categoryFilter')}
                aria-label={t('courses.categoryFilter')}
                style={{ width: 200, maxWidth: '100%' }}
              />
            </Form.Item>
            <Form.Item name="status">
              <Select
                id="course-search-status"
                allowClear
                placeholder={t('courses.statusFilter')}
                aria-label={t('courses.statusFilter')}
                style={{ width: 130 }}
                options={COURSE_STATUSES.map((status) => ({ value: status, label: t(`courses.status.${status}`) }))}
              />
            </Form.Item>
          </SearchBar>
        }
        add={{ permission: ADD, onClick: () => setDialog({ open: true }) }}
        edit={{ permission: EDIT, onClick: (course) => setDialog({ open: true, course }) }}
        exportFile={{ permission: LIST, fileName: t('courses.exportName') }}
        del={{ permission: DEL, rowName: (row) => row.title, warning: t('courses.deleteWarning'), onConfirm: remove }}
        tableProps={{ rowClassName: (course) => (course.id === selectedCourse?.id ? 'course-list-row-current' : '') }}
      />
      {dialog.open && (
        <CourseFormDialog
          course={dialog.course}
          onClose={() => setDialog({ open: false })}
          onSaved={(values) => {
            const edited = dialog.course;
            if (edited !== undefined && edited.id === selectedCourse?.id) select({ id: edited.id, name: values.title.trim() });
            void list.refresh();
            refreshCategories();
          }}
        />
      )}
    </div>
  );
}
