import type { PermissionCheck } from '@cloud-classroom/shared/permission';
import { useQuery } from '@tanstack/react-query';
import { Form, Select, Space } from 'antd';
import { useCheckPermission } from '../../components/permission';
import { courseTermsQuery } from '../applicants/applicants-api';
import { courseOptionsQuery } from '../exams/exams-api';
import { examOptionsQuery } from './certificates-api';
import { useCertificateMessages } from './certificates-messages';

const EXAM_READERS: readonly PermissionCheck[] = ['admin', 'exam:list'];
const COURSE_READERS: readonly PermissionCheck[] = ['admin', 'course:list'];

export type CertificateGroundFieldsProps = {
  /** What a certificate is for: an exam (`examId`), a course's term (`courseId`, `termId`), or neither. */
  ground: 'exam' | 'term' | 'none';
  /** The form's `courseId`: its terms are the ones offered. */
  courseId: number | undefined;
  /** Called when another course is chosen, for the form to forget the term of the last one. */
  onCourseChange: () => void;
  /** Course and term side by side (a page), else one under the other (a dialog). */
  sideBySide?: boolean;
};

/** The exam, or the course and its term, a certificate or an issuing rule is for: the form items and their options. */
export function CertificateGroundFields({ ground, courseId, onCourseChange, sideBySide = false }: CertificateGroundFieldsProps) {
  const t = useCertificateMessages();
  const may = useCheckPermission();
  const exams = useQuery({ ...examOptionsQuery(), enabled: ground === 'exam' && may(EXAM_READERS) });
  const courses = useQuery({ ...courseOptionsQuery(), enabled: ground === 'term' && may(COURSE_READERS) });
  const terms = useQuery({ ...courseTermsQuery(courseId ?? 0), enabled: ground === 'term' && courseId !== undefined && may(COURSE_READERS) });

  if (ground === 'exam') {
    return (
      <Form.Item name="examId" label={t('issue.exam')} rules={[{ required: true, message: t('issue.chooseExam') }]}>
        <Select
          showSearch={{ optionFilterProp: 'label' }}
          placeholder={t('issue.chooseExam')}
          loading={exams.isFetching}
          options={(exams.data ?? []).map((exam) => ({ value: exam.id, label: exam.title }))}
        />
      </Form.Item>
    );
  }
  if (ground === 'none') return null;
  const itemStyle = sideBySide ? { flex: '1 1 240px' } : undefined;
  const fields = (
    <>
      <Form.Item name="courseId" label={t('issue.course')} rules={[{ required: true, message: t('issue.chooseCourse') }]} style={itemStyle}>
        <Select
          showSearch={{ optionFilterProp: 'label' }}
          placeholder={t('issue.chooseCourse')}
          loading={courses.isFetching}
          options={(courses.data ?? []).map((course) => ({ value: course.id, label: course.title }))}
          onChange={onCourseChange}
        />
      </Form.Item>
      <Form.Item name="termId" label={t('issue.term')} rules={[{ required: true, message: t('issue.chooseTerm') }]} style={itemStyle}>
        <Select
          placeholder={t('issue.chooseTerm')}
          disabled={courseId === undefined}
          loading={terms.isFetching}
          options={(terms.data ?? []).map((term) => ({ value: term.id, label: term.name }))}
        />
      </Form.Item>
    </>
  );
  return sideBySide ? (
    <Space.Compact block style={{ gap: 12, flexWrap: 'wrap' }}>
      {fields}
    </Space.Compact>
  ) : (
    fields
  );
}
