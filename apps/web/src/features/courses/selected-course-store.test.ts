import { afterEach, describe, expect, it } from 'vitest';
import { COURSE_PICKER_PATH, needsSelectedCourse, useSelectedCourseStore } from './selected-course-store';

describe('needsSelectedCourse', () => {
  it.each([
    '/course/term/12',
    '/course/term/12/lessons',
    '/edu/edit-lesson',
    '/edu/edit-lesson/5',
    '/course/edit-lesson?id=3',
  ])('%s needs a course', (path) => expect(needsSelectedCourse(path)).toBe(true));

  it.each(['/course/course', '/course/terms', '/course/term', '/edu/edit-exam', '/dashboard', '/system/user'])(
    '%s does not',
    (path) => expect(needsSelectedCourse(path)).toBe(false),
  );

  it('sends people to /course/course to pick one', () => {
    expect(COURSE_PICKER_PATH).toBe('/course/course');
  });
});

describe('useSelectedCourseStore', () => {
  afterEach(() => {
    useSelectedCourseStore.getState().select(undefined);
    localStorage.clear();
  });

  it('starts with no course and remembers the chosen one in local storage', () => {
    expect(useSelectedCourseStore.getState().course).toBeUndefined();
    useSelectedCourseStore.getState().select({ id: 7, name: 'Java basics' });
    expect(useSelectedCourseStore.getState().course).toEqual({ id: 7, name: 'Java basics' });
    expect(JSON.parse(localStorage.getItem('selected-course') ?? '{}')).toMatchObject({ state: { course: { id: 7, name: 'Java basics' } } });
  });
});
