import type { Outline, OutlineLesson } from '@cloud-classroom/shared/courses';
import { describe, expect, it } from 'vitest';
import { moveChapter, moveLesson, orderOf, stepLesson } from './outline-order';

const lesson = (id: number): OutlineLesson => ({ id, title: `L${id}`, type: 'text', durationSeconds: null, pages: null, completionPercent: 90, preview: false });
const outline: Outline = [
  { id: 1, title: 'One', sort: 1, lessons: [lesson(11), lesson(12)] },
  { id: 2, title: 'Two', sort: 2, lessons: [] },
  { id: 3, title: 'Three', sort: 3, lessons: [lesson(31)] },
];
const shape = (next: Outline) => orderOf(next).chapters.map((chapter) => [chapter.id, chapter.lessons]);

describe('outline moves', () => {
  it('names every chapter and lesson in order', () => {
    expect(orderOf(outline)).toEqual({ chapters: [{ id: 1, lessons: [11, 12] }, { id: 2, lessons: [] }, { id: 3, lessons: [31] }] });
  });

  it('moves a chapter, clamping the target, and returns the same outline for a move in place', () => {
    expect(shape(moveChapter(outline, 3, 0))).toEqual([[3, [31]], [1, [11, 12]], [2, []]]);
    expect(shape(moveChapter(outline, 1, 99))).toEqual([[2, []], [3, [31]], [1, [11, 12]]]);
    expect(moveChapter(outline, 2, 1)).toBe(outline);
    expect(moveChapter(outline, 9, 0)).toBe(outline);
  });

  it('moves a lesson within its chapter and into another, even an empty one', () => {
    expect(shape(moveLesson(outline, 12, 1, 0))).toEqual([[1, [12, 11]], [2, []], [3, [31]]]);
    expect(shape(moveLesson(outline, 11, 2, 0))).toEqual([[1, [12]], [2, [11]], [3, [31]]]);
    expect(shape(moveLesson(outline, 31, 1, 1))).toEqual([[1, [11, 31, 12]], [2, []], [3, []]]);
    expect(moveLesson(outline, 11, 1, 0)).toBe(outline);
  });

  it('steps a lesson past the edge of its chapter into the next one, and nowhere past the outline’s ends', () => {
    expect(shape(stepLesson(outline, 12, -1))).toEqual([[1, [12, 11]], [2, []], [3, [31]]]);
    expect(shape(stepLesson(outline, 12, 1))).toEqual([[1, [11]], [2, [12]], [3, [31]]]);
    expect(shape(stepLesson(outline, 31, -1))).toEqual([[1, [11, 12]], [2, [31]], [3, []]]);
    expect(stepLesson(outline, 11, -1)).toBe(outline);
    expect(stepLesson(outline, 31, 1)).toBe(outline);
  });
});
