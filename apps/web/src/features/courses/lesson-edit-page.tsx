import { ArrowLeftOutlined } from '@ant-design/icons';
import {
  DEFAULT_COMPLETION_PERCENT,
  LESSON_MEDIA_KIND,
  LESSON_TYPES,
  lessonCreateSchema,
  type Lesson,
  type LessonCreate,
  type LessonType,
} from '@cloud-classroom/shared/courses';
import type { Media } from '@cloud-classroom/shared/media';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Col, Flex, Form, InputNumber, Radio, Result, Row, Select, Skeleton, Switch } from 'antd';
import { useNavigate, useSearchParams } from 'react-router';
import { LimitedInput } from '../../components/form/limited-input';
import { useFormSubmit } from '../../components/form/use-form-submit';
import { zodRule } from '../../components/list-page/zod-rule';
import { LazyRichTextEditor } from '../../components/rich-text/lazy-rich-text-editor';
import { HttpError } from '../../lib/http-client';
import { useSelectedCourseStore } from './selected-course-store';
import { MediaPicker } from '../media/media-picker';
import { useTagsViewStore } from '../tags-view/tags-view-store';
import { createLesson, lessonQuery, lessonsKeys, updateLesson } from './lessons-api';
import { LessonPreview } from './lesson-preview';
import { outlineKeys, outlineQuery } from './outline-api';
import { useOutlineMessages, type OutlineTranslate } from './outline-messages';
import './course-outline.css';

export const OUTLINE_PATH = '/course/term/outline';
const EDIT_LESSON_PATH = '/edu/edit-lesson';

type LessonValues = {
  chapterId: number;
  title: string;
  type: LessonType;
  media: Media | null;
  content: string;
  completionPercent: number;
  preview: boolean;
  required: boolean;
};

/** The kind of file a lesson type plays; none for text. */
const kindOf = (type: LessonType | undefined) => (type === 'video' || type === 'document' ? LESSON_MEDIA_KIND[type] : undefined);

function positiveId(value: string | null): number | undefined {
  const id = Number(value);
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

function LessonForm({ lesson, chapterId, courseId, t }: { lesson?: Lesson; chapterId: number; courseId: number | undefined; t: OutlineTranslate }) {
  const [form] = Form.useForm<LessonValues>();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const outline = useQuery({ ...outlineQuery(courseId ?? 0), enabled: courseId !== undefined });
  const type = Form.useWatch('type', form) ?? lesson?.type ?? 'video';
  const watched = Form.useWatch([], form) as Partial<LessonValues> | undefined;
  const kind = kindOf(type);

  const { submit, submitting } = useFormSubmit<LessonValues, unknown>({
    form,
    // The server names the file `mediaId`; the form holds the whole media, to show and preview it.
    fields: { mediaId: 'media' },
    mutationFn: (values, request) => {
      const body: LessonCreate = {
        chapterId: values.chapterId,
        title: values.title.trim(),
        type: values.type,
        mediaId: kindOf(values.type) === undefined ? null : (values.media?.id ?? null),
        content: values.content ?? '',
        completionPercent: values.completionPercent,
        preview: values.preview,
        required: values.required,
      };
      return lesson === undefined ? createLesson(body, request) : updateLesson({ id: lesson.id, ...body }, request);
    },
    successMessage: t('lesson.saved'),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: outlineKeys.all });
      if (lesson !== undefined) await queryClient.invalidateQueries({ queryKey: lessonsKeys.detail(lesson.id) });
      useTagsViewStore.getState().closeView(EDIT_LESSON_PATH);
      void navigate(OUTLINE_PATH);
    },
  });

  const initialValues: LessonValues = {
    chapterId: lesson?.chapterId ?? chapterId,
    title: lesson?.title ?? '',
    type: lesson?.type ?? 'video',
    media: lesson?.media ?? null,
    content: lesson?.content ?? '',
    completionPercent: lesson?.completionPercent ?? DEFAULT_COMPLETION_PERCENT,
    preview: lesson?.preview ?? false,
    required: lesson?.required ?? true,
  };

  const chapters = outline.data ?? [];
  const chapterOptions = chapters.some((chapter) => chapter.id === initialValues.chapterId)
    ? chapters.map((chapter) => ({ value: chapter.id, label: chapter.title }))
    : [{ value: initialValues.chapterId, label: `#${initialValues.chapterId}` }, ...chapters.map((chapter) => ({ value: chapter.id, label: chapter.title }))];

  return (
    <Row gutter={[16, 16]} className="lesson-edit">
      <Col xs={24} lg={14}>
        <Card size="small" title={lesson === undefined ? t('lesson.addTitle') : t('lesson.editTitle', { title: lesson.title })}>
          <Form<LessonValues>
            form={form}
            layout="vertical"
            initialValues={initialValues}
            onFinish={(values) => void submit(values)}
            onValuesChange={(changed: Partial<LessonValues>) => {
              // A video cannot play a PDF: a change of type drops a file of the other kind.
              if (changed.type === undefined) return;
              const media = form.getFieldValue('media') as Media | null;
              if (media !== null && media.kind !== kindOf(changed.type)) form.setFieldValue('media', null);
              void form.validateFields(['media']).catch(() => undefined);
            }}
          >
            <Form.Item name="type" label={t('lesson.type')} required>
              <Radio.Group optionType="button" options={LESSON_TYPES.map((value) => ({ value, label: t(`outline.type.${value}`) }))} />
            </Form.Item>
            <Form.Item name="title" label={t('lesson.title')} rules={[zodRule(lessonCreateSchema.shape.title)]}>
              <LimitedInput schema={lessonCreateSchema.shape.title} />
            </Form.Item>
            <Form.Item name="chapterId" label={t('lesson.chapter')} required>
              <Select options={chapterOptions} loading={outline.isFetching} />
            </Form.Item>
            {kind !== undefined && (
              <Form.Item
                name="media"
                label={t(`lesson.media.${kind}`)}
                required
                rules={[
                  {
                    validator: async (_rule, media: Media | null | undefined) => {
                      if (media === null || media === undefined) throw new Error(t(`lesson.mediaRequired.${kind}`));
                    },
                  },
                ]}
              >
                <MediaPicker kind={kind} />
              </Form.Item>
            )}
            <Form.Item
              name="content"
              label={t(type === 'text' ? 'lesson.content.text' : 'lesson.content.notes')}
              extra={type === 'text' ? undefined : t('lesson.notesHint')}
              rules={[zodRule(lessonCreateSchema.shape.content)]}
            >
              <LazyRichTextEditor aria-label={t(type === 'text' ? 'lesson.content.text' : 'lesson.content.notes')} />
            </Form.Item>
            <Flex gap={24} wrap>
              <Form.Item
                name="completionPercent"
                label={t('lesson.completionPercent')}
                extra={t(`lesson.completionHint.${type}`)}
                rules={[zodRule(lessonCreateSchema.shape.completionPercent)]}
              >
                <InputNumber min={1} max={100} precision={0} suffix="%" style={{ width: 120 }} />
              </Form.Item>
              <Form.Item name="preview" label={t('lesson.preview')} extra={t('lesson.previewHint')} valuePropName="checked">
                <Switch />
              </Form.Item>
              <Form.Item name="required" label={t('lesson.required')} extra={t('lesson.requiredHint')} valuePropName="checked">
                <Switch />
              </Form.Item>
            </Flex>
            <Flex gap={8} wrap>
              <Button type="primary" htmlType="submit" loading={submitting}>
                {t('lesson.save')}
              </Button>
              <Button icon={<ArrowLeftOutlined />} onClick={() => void navigate(OUTLINE_PATH)}>
                {t('lesson.back')}
              </Button>
            </Flex>
          </Form>
        </Card>
      </Col>
      <Col xs={24} lg={10}>
        <div className="lesson-edit__preview">
          <LessonPreview values={watched ?? initialValues} t={t} />
        </div>
      </Col>
    </Row>
  );
}

function Missing({ text, t }: { text: string; t: OutlineTranslate }) {
  const navigate = useNavigate();
  return (
    <Result
      status="warning"
      title={text}
      extra={
        <Button type="primary" onClick={() => void navigate(OUTLINE_PATH)}>
          {t('lesson.back')}
        </Button>
      }
    />
  );
}

function EditLesson({ id, t }: { id: number; t: OutlineTranslate }) {
  const lesson = useQuery(lessonQuery(id));
  if (lesson.error instanceof HttpError && lesson.error.status === 404) return <Missing text={t('lesson.notFound')} t={t} />;
  if (lesson.data === undefined) return <Skeleton active />;
  return <LessonForm lesson={lesson.data} chapterId={lesson.data.chapterId} courseId={lesson.data.courseId} t={t} />;
}

/**
 * /edu/edit-lesson: `?id=<lesson>` edits a lesson, `?chapter=<chapter>` adds one to that
 * chapter of the chosen course; a preview beside the form shows it as a learner would.
 */
export default function LessonEditPage() {
  const t = useOutlineMessages();
  const [params] = useSearchParams();
  const course = useSelectedCourseStore((state) => state.course);
  const id = positiveId(params.get('id'));
  const chapterId = positiveId(params.get('chapter'));
  // The page stays mounted from one lesson to the next: each address gets a fresh form.
  if (id !== undefined) return <EditLesson key={`id-${id}`} id={id} t={t} />;
  if (chapterId !== undefined) return <LessonForm key={`chapter-${chapterId}`} chapterId={chapterId} courseId={course?.id} t={t} />;
  return <Missing text={t('lesson.noTarget')} t={t} />;
}
