import {
  COURSE_STATUSES,
  courseCreateSchema,
  DEFAULT_PLAYBACK_RATE,
  MAX_PLAYBACK_RATE,
  type Course,
  type CourseCreate,
  type CourseStatus,
} from '@cloud-classroom/shared/courses';
import { Form, InputNumber, Radio, Switch } from 'antd';
import { LimitedInput, LimitedTextArea } from '../../components/form/limited-input';
import { FormDialog } from '../../components/list-page/form-dialog';
import { useListMessages } from '../../components/list-page/list-page-messages';
import { zodRule } from '../../components/list-page/zod-rule';
import { LazyRichTextEditor } from '../../components/rich-text/lazy-rich-text-editor';
import { CategoryTreeSelect } from './category-tree-select';
import { CourseCoverUpload } from './course-cover-upload';
import { useCourseMessages } from './courses-messages';
import { createCourse, updateCourse } from './courses-api';

export type CourseFormValues = {
  title: string;
  categoryId?: number | null;
  status: CourseStatus;
  required: boolean;
  cover: number | null;
  summary?: string;
  description?: string;
  maxPlaybackRate: number;
  allowSkip: boolean;
};

const shape = courseCreateSchema.shape;

export function courseBodyOf(values: CourseFormValues): CourseCreate {
  return {
    title: values.title.trim(),
    categoryId: values.categoryId ?? null,
    status: values.status,
    required: values.required,
    cover: values.cover ?? null,
    summary: (values.summary ?? '').trim(),
    description: values.description ?? '',
    maxPlaybackRate: values.maxPlaybackRate,
    allowSkip: values.allowSkip,
  };
}

function initialValuesOf(course: Course | undefined): CourseFormValues {
  if (course === undefined) {
    return { title: '', status: 'draft', required: false, cover: null, summary: '', description: '', maxPlaybackRate: DEFAULT_PLAYBACK_RATE, allowSkip: false };
  }
  const { title, categoryId, status, required, cover, summary, description, maxPlaybackRate, allowSkip } = course;
  return { title, categoryId, status, required, cover, summary, description, maxPlaybackRate, allowSkip };
}

export type CourseFormDialogProps = {
  /** The course to edit; absent adds one. */
  course?: Course;
  onClose: () => void;
  onSaved: (values: CourseFormValues) => void;
};

/** Adds or edits a course: its title, category, status, type, cover, texts and playback rules. */
export function CourseFormDialog({ course, onClose, onSaved }: CourseFormDialogProps) {
  const t = useCourseMessages();
  const tl = useListMessages();
  const editing = course !== undefined;

  return (
    <FormDialog<CourseFormValues, CourseFormValues>
      open
      title={editing ? t('courses.editTitle') : t('courses.addTitle')}
      initialValues={initialValuesOf(course)}
      width={720}
      labelWidth={120}
      onSubmit={async (values, request) => {
        const body = courseBodyOf(values);
        await (editing ? updateCourse({ ...body, id: course.id }, request) : createCourse(body, request));
        return values;
      }}
      onSuccess={onSaved}
      onClose={onClose}
    >
      <Form.Item name="title" label={t('courses.title')} rules={[zodRule(shape.title)]}>
        <LimitedInput schema={shape.title} />
      </Form.Item>
      <Form.Item name="categoryId" label={t('courses.category')}>
        <CategoryTreeSelect allowClear placeholder={t('courses.uncategorised')} />
      </Form.Item>
      <Form.Item name="status" label={t('courses.status')}>
        <Radio.Group optionType="button" options={COURSE_STATUSES.map((status) => ({ value: status, label: t(`courses.status.${status}`) }))} />
      </Form.Item>
      <Form.Item name="required" label={t('courses.required')}>
        <Radio.Group
          optionType="button"
          options={[
            { value: true, label: t('courses.required.true') },
            { value: false, label: t('courses.required.false') },
          ]}
        />
      </Form.Item>
      <Form.Item name="cover" label={t('courses.cover')}>
        <CourseCoverUpload />
      </Form.Item>
      <Form.Item name="summary" label={t('courses.summary')} rules={[zodRule(shape.summary)]}>
        <LimitedTextArea schema={shape.summary} rows={2} />
      </Form.Item>
      <Form.Item name="description" label={t('courses.description')} rules={[zodRule(shape.description)]}>
        <LazyRichTextEditor aria-label={t('courses.description')} />
      </Form.Item>
      <Form.Item
        name="maxPlaybackRate"
        label={t('courses.maxPlaybackRate')}
        extra={t('courses.maxPlaybackRateHint', { max: MAX_PLAYBACK_RATE })}
        rules={[{ required: true, message: tl('list.required') }, zodRule(shape.maxPlaybackRate)]}
      >
        <InputNumber min={1} max={MAX_PLAYBACK_RATE} step={0.25} suffix="×" style={{ width: 160 }} />
      </Form.Item>
      <Form.Item name="allowSkip" label={t('courses.allowSkip')} extra={t('courses.allowSkipHint')} valuePropName="checked">
        <Switch />
      </Form.Item>
    </FormDialog>
  );
}
