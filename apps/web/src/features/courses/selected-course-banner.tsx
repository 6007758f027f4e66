import { Alert, Button, Flex } from 'antd';
import { useNavigate } from 'react-router';
import { useCourseMessages } from './courses-messages';
import { COURSE_OUTLINE_PATH, COURSE_PICKER_PATH, COURSE_TERMS_PATH, useSelectedCourseStore } from './selected-course-store';

export type SelectedCourseBannerProps = {
  /** Where the banner stands: the course list offers to clear the choice, the course's own pages to change it. */
  on: 'course-list' | 'terms' | 'outline' | 'applicants' | 'rules';
  /** The page's heading naming the course ("Terms of …"); "Current course: …" by default. */
  heading?: string;
};

/** Which course the course pages work on, with the way to its other pages; on the course list, how to choose one. */
export function SelectedCourseBanner({ on, heading }: SelectedCourseBannerProps) {
  const t = useCourseMessages();
  const course = useSelectedCourseStore((state) => state.course);
  const select = useSelectedCourseStore((state) => state.select);
  const navigate = useNavigate();
  if (course === undefined) {
    return <Alert type="info" showIcon title={t('courses.noneSelected')} style={{ marginBottom: 12 }} />;
  }
  return (
    <Alert
      type="success"
      showIcon
      style={{ marginBottom: 12 }}
      title={heading ?? t('courses.selectedCourse', { name: course.name })}
      description={
        <Flex gap={4} wrap>
          {on !== 'terms' && (
            <Button size="small" onClick={() => void navigate(COURSE_TERMS_PATH)}>{t('courses.toTerms')}</Button>
          )}
          {on !== 'outline' && (
            <Button size="small" onClick={() => void navigate(COURSE_OUTLINE_PATH)}>{t('courses.toOutline')}</Button>
          )}
          {on === 'course-list' ? (
            <Button size="small" type="text" onClick={() => select(undefined)}>
              {t('courses.clearSelection')}
            </Button>
          ) : (
            <Button size="small" type="text" onClick={() => void navigate(COURSE_PICKER_PATH)}>{t('courses.change')}</Button>
          )}
        </Flex>
      }
    />
  );
}
