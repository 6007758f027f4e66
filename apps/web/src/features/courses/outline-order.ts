import type { Outline, OutlineOrder } from '@cloud-classroom/shared/courses';

// The outline editor's moves, pure: each returns a new outline, or the same one when the move
// goes nowhere, so the page can tell a real change (to PUT) from a drop in place.

type Chapter = Outline[number];

/** What `PUT api/courses/{id}/outline` takes: every chapter and lesson, in the outline's order. */
export function orderOf(outline: Outline): OutlineOrder {
  return { chapters: outline.map((chapter) => ({ id: chapter.id, lessons: chapter.lessons.map((lesson) => lesson.id) })) };
}

/** The chapter moved to `toIndex` (clamped); the others keep their order. */
export function moveChapter(outline: Outline, chapterId: number, toIndex: number): Outline {
  const from = outline.findIndex((chapter) => chapter.id === chapterId);
  const to = Math.max(0, Math.min(outline.length - 1, toIndex));
  if (from < 0 || from === to) return outline;
  const moved = [...outline];
  const [chapter] = moved.splice(from, 1) as [Chapter];
  moved.splice(to, 0, chapter);
  return moved;
}

/** Where a lesson is: its chapter's index and its own index in that chapter. */
export function lessonPlace(outline: Outline, lessonId: number): { chapter: number; index: number } | undefined {
  for (const [chapter, { lessons }] of outline.entries()) {
    const index = lessons.findIndex((lesson) => lesson.id === lessonId);
    if (index >= 0) return { chapter, index };
  }
  return undefined;
}

/** The lesson moved into chapter `toChapterId` at `toIndex` (clamped to the chapter's end). */
export function moveLesson(outline: Outline, lessonId: number, toChapterId: number, toIndex: number): Outline {
  const from = lessonPlace(outline, lessonId);
  const toChapter = outline.findIndex((chapter) => chapter.id === toChapterId);
  if (from === undefined || toChapter < 0) return outline;
  const lesson = outline[from.chapter]!.lessons[from.index]!;
  const without = outline.map((chapter, index) =>
    index === from.chapter ? { ...chapter, lessons: chapter.lessons.filter((other) => other.id !== lessonId) } : chapter,
  );
  const target = without[toChapter]!;
  const at = Math.max(0, Math.min(target.lessons.length, toIndex));
  if (from.chapter === toChapter && from.index === at) return outline;
  const lessons = [...target.lessons];
  lessons.splice(at, 0, lesson);
  return without.map((chapter, index) => (index === toChapter ? { ...chapter, lessons } : chapter));
}

/**
 * One step up or down, as the phone's buttons move a lesson: past the top of its chapter it goes
 * to the end of the chapter above, past the bottom to the start of the chapter below.
 */
export function stepLesson(outline: Outline, lessonId: number, step: -1 | 1): Outline {
  const place = lessonPlace(outline, lessonId);
  if (place === undefined) return outline;
  const chapter = outline[place.chapter]!;
  const index = place.index + step;
  if (index >= 0 && index < chapter.lessons.length) return moveLesson(outline, lessonId, chapter.id, index);
  const neighbour = outline[place.chapter + step];
  if (neighbour === undefined) return outline;
  return moveLesson(outline, lessonId, neighbour.id, step === -1 ? neighbour.lessons.length : 0);
}
