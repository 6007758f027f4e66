import { PlusOutlined } from '@ant-design/icons';
import { chapterCreateSchema, chapterUpdateSchema, type Outline } from '@cloud-classroom/shared/courses';
import type { PermissionCheck } from '@cloud-classroom/shared/permission';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Empty, Flex, Form, Grid, Result, Skeleton, Tag, Typography } from 'antd';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { LimitedInput, maxLengthOf } from '../../components/form/limited-input';
import { useListMessages } from '../../components/list-page/list-page-messages';
import { useConfirmDelete } from '../../components/list-page/use-confirm-delete';
import { zodRule } from '../../components/list-page/zod-rule';
import { useFormSubmit } from '../../components/form/use-form-submit';
import { useCheckPermission } from '../../components/permission';
import { HttpError } from '../../lib/http-client';
import { COURSE_PICKER_PATH, useSelectedCourseStore } from './selected-course-store';
import { lessonsKeys, deleteLessons } from './lessons-api';
import { OutlineBoard } from './outline-board';
import { createChapter, deleteChapters, outlineCourseQuery, outlineKeys, outlineQuery, renameChapter, saveOutlineOrder } from './outline-api';
import { useOutlineMessages, type OutlineTranslate } from './outline-messages';
import { orderOf } from './outline-order';
import './course-outline.css';

const EDIT: readonly PermissionCheck[] = ['admin', 'course:edit'];

export const EDIT_LESSON_PATH = '/edu/edit-lesson';

function AddChapter({ courseId, t, onAdded }: { courseId: number; t: OutlineTranslate; onAdded: () => void }) {
  const [form] = Form.useForm<{ title: string }>();
  const [open, setOpen] = useState(false);
  const { submit, submitting } = useFormSubmit<{ title: string }, { id: number }>({
    form,
    mutationFn: ({ title }, request) => createChapter({ courseId, title: title.trim() }, request),
    successMessage: t('outline.chapterAdded'),
    onSuccess: () => {
      form.resetFields();
      setOpen(false);
      onAdded();
    },
  });
  if (!open) {
    return (
      <Button type="primary" icon={<PlusOutlined />} onClick={() => setOpen(true)}>
        {t('outline.addChapter')}
      </Button>
    );
  }
  return (
    <Form form={form} layout="inline" onFinish={(values) => void submit(values)} className="course-outline__add-chapter">
      <Form.Item name="title" rules={[zodRule(chapterCreateSchema.shape.title)]} style={{ flex: 1, minWidth: 180 }}>
        <LimitedInput schema={chapterCreateSchema.shape.title} autoFocus aria-label={t('outline.chapterTitle')} placeholder={t('outline.chapterTitle')} onKeyDown={(event) => event.key === 'Escape' && setOpen(false)} />
      </Form.Item>
      <Flex gap={8}>
        <Button type="primary" htmlType="submit" loading={submitting}>
          {t('common.confirm')}
        </Button>
        <Button onClick={() => setOpen(false)}>{t('common.cancel')}</Button>
      </Flex>
    </Form>
  );
}

// antd's in-place editing shows no counter, so a longer title is refused in words rather than cut.
const CHAPTER_TITLE_MAX = maxLengthOf(chapterUpdateSchema.shape.title) ?? 0;

function CourseOutline({ courseId, courseName }: { courseId: number; courseName: string }) {
  const t = useOutlineMessages();
  const tl = useListMessages();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const confirmDelete = useConfirmDelete();
  const editable = useCheckPermission()(EDIT);
  const phone = Grid.useBreakpoint().md === false;
  const course = useQuery(outlineCourseQuery(courseId));
  const outline = useQuery(outlineQuery(courseId));
  const outlineKey = outlineKeys.outline(courseId);

  const refresh = () => queryClient.invalidateQueries({ queryKey: outlineKeys.all });

  // The new order shows at once; a refusal (notified by the client) puts the old one back.
  const reorder = useMutation({
    mutationFn: (next: Outline) => saveOutlineOrder(courseId, orderOf(next)),
    onMutate: async (next) => {
      await queryClient.cancelQueries({ queryKey: outlineKey });
      const previous = queryClient.getQueryData<Outline>(outlineKey);
      queryClient.setQueryData(outlineKey, next);
      return { previous };
    },
    onError: (_error, _next, context) => {
      if (context?.previous !== undefined) queryClient.setQueryData(outlineKey, context.previous);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: outlineKey }),
  });

  const rename = async (id: number, title: string, old: string) => {
    const trimmed = title.trim();
    if (trimmed === '' || trimmed === old) return;
    if (trimmed.length > CHAPTER_TITLE_MAX) {
      void message.warning(`${t('outline.chapterTitle')}: ${tl('list.maxLength', { max: CHAPTER_TITLE_MAX })} (${trimmed.length})`);
      return;
    }
    try {
      await renameChapter({ id, title: trimmed });
    } catch {
      return;
    }
    await refresh();
  };

  if (course.error instanceof HttpError && course.error.status === 404) {
    return (
      <Result
        status="warning"
        title={t('outline.courseMissing')}
        extra={
          <Link to={COURSE_PICKER_PATH}>
            <Button type="primary">{t('outline.chooseCourse')}</Button>
          </Link>
        }
      />
    );
  }

  const chapters = outline.data ?? [];
  const lessonTotal = chapters.reduce((sum, chapter) => sum + chapter.lessons.length, 0);
  return (
    <Flex vertical gap={12} className="course-outline">
      <Card size="small">
        <Flex justify="space-between" align="center" gap={12} wrap>
          <Flex vertical style={{ minWidth: 0 }}>
            <Typography.Title level={4} style={{ margin: 0 }} ellipsis={{ tooltip: true }}>
              {t('outline.title', { course: course.data?.title ?? courseName })}
              {course.data && (
                <Tag style={{ marginInlineStart: 8, verticalAlign: 'middle' }}>{t(`outline.status.${course.data.status}`)}</Tag>
              )}
            </Typography.Title>
            <Typography.Text type="secondary">{`${t('outline.chapterCount', { count: chapters.length })} · ${t('outline.lessonCount', { count: lessonTotal })}`}</Typography.Text>
          </Flex>
          {editable && <AddChapter courseId={courseId} t={t} onAdded={() => void refresh()} />}
        </Flex>
        {editable && !phone && chapters.length > 0 && (
          <Typography.Paragraph type="secondary" style={{ margin: '8px 0 0' }}>
            {t('outline.dragHint')}
          </Typography.Paragraph>
        )}
      </Card>
      {outline.isPending ? (
        <Skeleton active />
      ) : chapters.length === 0 ? (
        <Card>
          <Empty description={t('outline.empty')} />
        </Card>
      ) : (
        <OutlineBoard
          outline={chapters}
          editable={editable}
          phone={phone}
          t={t}
          onReorder={(next) => reorder.mutate(next)}
          renderChapterTitle={(chapter) => (
            <Typography.Text
              strong
              className="outline-board__chapter-title"
              editable={
                editable
                  ? {
                      onChange: (title) => void rename(chapter.id, title, chapter.title),
                      tooltip: t('outline.rename'),
                      text: chapter.title,
                    }
                  : false
              }
            >
              {chapter.title}
            </Typography.Text>
          )}
          onOpenLesson={(lesson) => void navigate(`${EDIT_LESSON_PATH}?id=${lesson.id}`)}
          onAddLesson={(chapter) => void navigate(`${EDIT_LESSON_PATH}?chapter=${chapter.id}`)}
          onDeleteChapter={(chapter) =>
            confirmDelete(
              chapter.title,
              async () => {
                await deleteChapters([chapter.id]);
                void message.success(t('outline.deleted'));
                await refresh();
              },
              chapter.lessons.length > 0 ? t('outline.lessonsGoToo', { count: chapter.lessons.length }) : undefined,
            )
          }
          onDeleteLesson={(lesson) =>
            confirmDelete(lesson.title, async () => {
              await deleteLessons([lesson.id]);
              queryClient.removeQueries({ queryKey: lessonsKeys.detail(lesson.id) });
              void message.success(t('outline.deleted'));
              await refresh();
            })
          }
        />
      )}
    </Flex>
  );
}

/**
 * 课程大纲 (/course/term/outline): the chapters and lessons of the course chosen in the course
 * list, to add, rename, delete and put in order. The layout sends a visit without a chosen
 * course to the course list first.
 */
export default function CourseOutlinePage() {
  const course = useSelectedCourseStore((state) => state.course);
  if (course === undefined) return null;
  // A newly chosen course starts a fresh editor (this page stays mounted in its tab).
  return <CourseOutline key={course.id} courseId={course.id} courseName={course.name} />;
}
