import { create } from 'zustand';
import { persist } from 'zustand/middleware';

export type SelectedCourse = { id: number; name: string };

/** The course whose terms and lessons the course pages edit; chosen on /course/course. */
type SelectedCourseState = {
  course: SelectedCourse | undefined;
  select: (course: SelectedCourse | undefined) => void;
};

export const useSelectedCourseStore = create<SelectedCourseState>()(
  persist(
    (set) => ({
      course: undefined,
      select: (course) => set({ course }),
    }),
    { name: 'selected-course', partialize: ({ course }) => ({ course }) },
  ),
);

export const COURSE_PICKER_PATH = '/course/course';
/** The pages that work on the selected course (menus of migration 0010, under /term/). */
export const COURSE_TERMS_PATH = '/course/term/index';
export const COURSE_OUTLINE_PATH = '/course/term/outline';

/** SPEC §4: paths containing /term/ or edit-lesson work inside one course and need it chosen first. */
export function needsSelectedCourse(path: string): boolean {
  return path.includes('/term/') || path.includes('edit-lesson');
}
