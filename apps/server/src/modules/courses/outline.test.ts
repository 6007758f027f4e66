import { lessonSchema, outlineSchema, type Outline } from '@cloud-classroom/shared/courses';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { itRefusesOutsiders } from '../../test/guarded-routes.js';
import { buildTestApp, call, loginAs } from '../../test/test-app.js';
import {
  createChapter,
  createCourse,
  created,
  createTerm,
  createTextLesson,
  db,
  expectRefusal,
  insertApplicant,
  insertMedia,
  userId,
} from '../../test/course-fixtures.js';

async function outline(app: FastifyInstance, token: string, courseId: number): Promise<Outline> {
  const response = await call(app, 'GET', `/api/courses/${courseId}/outline`, token);
  expect(response.statusCode, response.body).toBe(200);
  const parsed = outlineSchema.parse(response.json());
  // Exactly the contract: parsing drops fields it does not name, so any would show here.
  expect(response.json()).toEqual(parsed);
  return parsed;
}

/** The outline as chapter titles with their lessons' titles. */
const shape = (chapters: Outline) => chapters.map((chapter) => ({ [chapter.title]: chapter.lessons.map((lesson) => lesson.title) }));

describe('outline, chapters and lessons: access', () => {
  const { app } = itRefusesOutsiders([
    ['GET', '/api/courses/1/outline'],
    ['PUT', '/api/courses/1/outline', { chapters: [] }],
    ['POST', '/api/chapters', { courseId: 1, title: 'nope' }],
    ['PUT', '/api/chapters', { id: 1, title: 'nope' }],
    ['DELETE', '/api/chapters', [1]],
    ['GET', '/api/lessons/1'],
    ['POST', '/api/lessons', { chapterId: 1, title: 'nope', type: 'text', content: 'x' }],
    ['PUT', '/api/lessons', { id: 1, chapterId: 1, title: 'nope', type: 'text', content: 'x' }],
    ['DELETE', '/api/lessons', [1]],
  ]);

  it('nothing was written by the refused calls', async () => {
    expect(await db(app()).selectFrom('edu_chapter').selectAll().execute()).toEqual([]);
    expect(await db(app()).selectFrom('edu_lesson').selectAll().execute()).toEqual([]);
  });
});

describe('outline', () => {
  let app: FastifyInstance;
  let teacher: string;
  beforeAll(async () => {
    app = await buildTestApp();
    teacher = await loginAs(app, 'teacher');
  });
  afterAll(async () => {
    await app.close();
  });

  it('lists chapters and lessons in the order they were added, with the media’s duration and pages', async () => {
    const course = await createCourse(app, teacher);
    const video = await insertMedia(app, 'video', { durationSeconds: 93.5 });
    const pdf = await insertMedia(app, 'document', { pages: 12 });
    const intro = await createChapter(app, teacher, course, 'Intro');
    const practice = await createChapter(app, teacher, course, 'Practice');
    const watch = await created(app, teacher, '/api/lessons', { chapterId: intro, title: 'Watch', type: 'video', mediaId: video, preview: true });
    const read = await created(app, teacher, '/api/lessons', { chapterId: intro, title: 'Read', type: 'document', mediaId: pdf, completionPercent: 100 });
    const text = await createTextLesson(app, teacher, practice, 'Do');

    expect(await outline(app, teacher, course)).toEqual([
      {
        id: intro,
        title: 'Intro',
        sort: 1,
        lessons: [
          { id: watch, title: 'Watch', type: 'video', durationSeconds: 93.5, pages: null, completionPercent: 90, preview: true },
          { id: read, title: 'Read', type: 'document', durationSeconds: null, pages: 12, completionPercent: 100, preview: false },
        ],
      },
      { id: practice, title: 'Practice', sort: 2, lessons: [{ id: text, title: 'Do', type: 'text', durationSeconds: null, pages: null, completionPercent: 90, preview: false }] },
    ]);
    expect((await call(app, 'GET', '/api/courses/99999/outline', teacher)).statusCode).toBe(404);
  });

  it('reorders chapters and lessons, moving a lesson to another chapter, in one go', async () => {
    const course = await createCourse(app, teacher);
    const first = await createChapter(app, teacher, course, 'First');
    const second = await createChapter(app, teacher, course, 'Second');
    const a = await createTextLesson(app, teacher, first, 'A');
    const b = await createTextLesson(app, teacher, first, 'B');
    const c = await createTextLesson(app, teacher, second, 'C');

    const response = await call(app, 'PUT', `/api/courses/${course}/outline`, teacher, {
      chapters: [
        { id: second, lessons: [b, c] },
        { id: first, lessons: [a] },
      ],
    });
    expect(response.statusCode, response.body).toBe(204);
    const reordered = await outline(app, teacher, course);
    expect(shape(reordered)).toEqual([{ Second: ['B', 'C'] }, { First: ['A'] }]);
    expect(reordered.map((chapter) => chapter.sort)).toEqual([1, 2]);
    const moved = lessonSchema.parse((await call(app, 'GET', `/api/lessons/${b}`, teacher)).json());
    expect(moved).toMatchObject({ chapterId: second, courseId: course, sort: 1 });

    // A chapter emptied by the move is still listed, with no lessons.
    const emptied = await call(app, 'PUT', `/api/courses/${course}/outline`, teacher, {
      chapters: [
        { id: first, lessons: [] },
        { id: second, lessons: [c, a, b] },
      ],
    });
    expect(emptied.statusCode, emptied.body).toBe(204);
    expect(shape(await outline(app, teacher, course))).toEqual([{ First: [] }, { Second: ['C', 'A', 'B'] }]);
  });

  it('must name every chapter and lesson of the course exactly once, or nothing changes', async () => {
    const course = await createCourse(app, teacher);
    const one = await createChapter(app, teacher, course, 'One');
    const two = await createChapter(app, teacher, course, 'Two');
    const x = await createTextLesson(app, teacher, one, 'X');
    const y = await createTextLesson(app, teacher, two, 'Y');
    const elsewhere = await createChapter(app, teacher, await createCourse(app, teacher, { title: 'Elsewhere' }), 'Foreign');
    const foreignLesson = await createTextLesson(app, teacher, elsewhere, 'Foreign lesson');

    const orders = [
      { chapters: [{ id: one, lessons: [x, y] }] },
      { chapters: [{ id: one, lessons: [x] }, { id: two, lessons: [] }] },
      { chapters: [{ id: one, lessons: [x, y] }, { id: two, lessons: [y] }] },
      { chapters: [{ id: one, lessons: [x] }, { id: one, lessons: [y] }] },
      { chapters: [{ id: one, lessons: [x] }, { id: two, lessons: [y] }, { id: elsewhere, lessons: [] }] },
      { chapters: [{ id: one, lessons: [x, foreignLesson] }, { id: two, lessons: [y] }] },
    ];
    for (const order of orders) {
      expectRefusal(await call(app, 'PUT', `/api/courses/${course}/outline`, teacher, order), 400, 'chapters');
    }
    expectRefusal(await call(app, 'PUT', `/api/courses/${course}/outline`, teacher, { chapters: [{ id: 'x', lessons: [] }] }), 400, 'chapters.0.id');
    expectRefusal(await call(app, 'PUT', `/api/courses/${course}/outline`, teacher, {}), 400, 'chapters');
    expect((await call(app, 'PUT', '/api/courses/99999/outline', teacher, { chapters: [] })).statusCode).toBe(404);
    expect(shape(await outline(app, teacher, course))).toEqual([{ One: ['X'] }, { Two: ['Y'] }]);
  });

  it('renames a chapter; deleting one deletes its lessons and nothing else', async () => {
    const course = await createCourse(app, teacher);
    const kept = await createChapter(app, teacher, course, 'Kept');
    const gone = await createChapter(app, teacher, course, 'Gone');
    await createTextLesson(app, teacher, kept, 'Stays');
    const doomed = await createTextLesson(app, teacher, gone, 'Goes');

    expect((await call(app, 'PUT', '/api/chapters', teacher, { id: kept, title: ' Renamed ' })).statusCode).toBe(204);
    expectRefusal(await call(app, 'PUT', '/api/chapters', teacher, { id: kept, title: '' }), 400, 'title');
    expect((await call(app, 'PUT', '/api/chapters', teacher, { id: 99_999, title: 'x' })).statusCode).toBe(404);
    expectRefusal(await call(app, 'POST', '/api/chapters', teacher, { courseId: 99_999, title: 'x' }), 400, 'courseId');
    expectRefusal(await call(app, 'POST', '/api/chapters', teacher, { courseId: 3_000_000_000, title: 'x' }), 400, 'courseId');

    expect((await call(app, 'DELETE', '/api/chapters', teacher, [gone])).statusCode).toBe(200);
    expect(shape(await outline(app, teacher, course))).toEqual([{ Renamed: ['Stays'] }]);
    expect((await call(app, 'GET', `/api/lessons/${doomed}`, teacher)).statusCode).toBe(404);
    expect((await call(app, 'DELETE', '/api/chapters', teacher, [gone])).statusCode).toBe(404);
  });
});

describe('lessons', () => {
  let app: FastifyInstance;
  let teacher: string;
  let course: number;
  let chapter: number;
  beforeAll(async () => {
    app = await buildTestApp();
    teacher = await loginAs(app, 'teacher');
    course = await createCourse(app, teacher);
    chapter = await createChapter(app, teacher, course);
  });
  afterAll(async () => {
    await app.close();
  });

  it('reads a lesson with its media, and writes it with its media checked against its type', async () => {
    const video = await insertMedia(app, 'video', { durationSeconds: 30 });
    const pdf = await insertMedia(app, 'document', { pages: 3 });
    const image = await insertMedia(app, 'image');

    for (const [type, mediaId] of [['video', pdf], ['video', image], ['document', video], ['document', 99_999]] as const) {
      expectRefusal(await call(app, 'POST', '/api/lessons', teacher, { chapterId: chapter, title: 'x', type, mediaId }), 400, 'mediaId');
    }
    expectRefusal(await call(app, 'POST', '/api/lessons', teacher, { chapterId: chapter, title: 'x', type: 'video' }), 400, 'mediaId');

    const id = await created(app, teacher, '/api/lessons', {
      chapterId: chapter,
      title: 'Watch',
      type: 'video',
      mediaId: video,
      content: '<p>Notes<script>alert(1)</script></p>',
    });
    const response = await call(app, 'GET', `/api/lessons/${id}`, teacher);
    expect(response.statusCode, response.body).toBe(200);
    expect(lessonSchema.parse(response.json())).toMatchObject({
      id,
      courseId: course,
      chapterId: chapter,
      title: 'Watch',
      type: 'video',
      durationSeconds: 30,
      pages: null,
      content: '<p>Notes</p>',
      media: { id: video, kind: 'video', mime: 'video/mp4', durationSeconds: 30 },
      createBy: 'teacher',
    });

    const changed = await call(app, 'PUT', '/api/lessons', teacher, { id, chapterId: chapter, title: 'Read', type: 'document', mediaId: pdf });
    expect(changed.statusCode, changed.body).toBe(204);
    expect(lessonSchema.parse((await call(app, 'GET', `/api/lessons/${id}`, teacher)).json())).toMatchObject({ type: 'document', pages: 3, media: { id: pdf } });
    expectRefusal(await call(app, 'PUT', '/api/lessons', teacher, { id, chapterId: chapter, title: 'Read', type: 'document', mediaId: image }), 400, 'mediaId');
  });

  it('needs a text lesson to have text after sanitising, and keeps no media on it', async () => {
    for (const content of ['', '<p></p>', '<p><br></p>', '<script>alert(1)</script>', '<iframe src="https://example.com"></iframe>']) {
      expectRefusal(await call(app, 'POST', '/api/lessons', teacher, { chapterId: chapter, title: 'x', type: 'text', content }), 400, 'content');
    }
    const video = await insertMedia(app, 'video');
    const id = await createTextLesson(app, teacher, chapter, 'Text', { mediaId: video, content: '<p>Body</p>' });
    expect(lessonSchema.parse((await call(app, 'GET', `/api/lessons/${id}`, teacher)).json())).toMatchObject({ type: 'text', media: null, content: '<p>Body</p>' });
  });

  it('keeps whether a lesson is required, required unless told otherwise, and the outline does not show it', async () => {
    const id = await createTextLesson(app, teacher, chapter, 'Required by default');
    const read = async () => lessonSchema.parse((await call(app, 'GET', `/api/lessons/${id}`, teacher)).json()).required;
    expect(await read()).toBe(true);
    const optional = await call(app, 'PUT', '/api/lessons', teacher, { id, chapterId: chapter, title: 'Optional', type: 'text', content: '<p>x</p>', required: false });
    expect(optional.statusCode, optional.body).toBe(204);
    expect(await read()).toBe(false);
    expect((await db(app).selectFrom('edu_lesson').select('required').where('id', '=', id).executeTakeFirstOrThrow()).required).toBe(0);
    const elective = await createTextLesson(app, teacher, chapter, 'Elective', { required: false });
    expect(lessonSchema.parse((await call(app, 'GET', `/api/lessons/${elective}`, teacher)).json()).required).toBe(false);
    expectRefusal(await call(app, 'POST', '/api/lessons', teacher, { chapterId: chapter, title: 'x', type: 'text', content: '<p>x</p>', required: 'yes' }), 400, 'required');
    const lessons = (await outline(app, teacher, course)).flatMap((item) => item.lessons);
    expect(lessons.some((lesson) => 'required' in lesson)).toBe(false);
  });

  it('adds a lesson last in its chapter; a lesson moved to another chapter goes last there, in that chapter’s course', async () => {
    const other = await createCourse(app, teacher, { title: 'Other' });
    const target = await createChapter(app, teacher, other, 'Target');
    const there = await createTextLesson(app, teacher, target, 'Already there');
    const first = await createTextLesson(app, teacher, chapter, 'First here');
    const second = await createTextLesson(app, teacher, chapter, 'Second here');
    const sortOf = async (id: number) => lessonSchema.parse((await call(app, 'GET', `/api/lessons/${id}`, teacher)).json()).sort;
    expect(await sortOf(second)).toBe((await sortOf(first)) + 1);

    const moved = await call(app, 'PUT', '/api/lessons', teacher, { id: first, chapterId: target, title: 'Moved', type: 'text', content: 'x' });
    expect(moved.statusCode, moved.body).toBe(204);
    expect(lessonSchema.parse((await call(app, 'GET', `/api/lessons/${first}`, teacher)).json())).toMatchObject({ chapterId: target, courseId: other });
    expect(shape(await outline(app, teacher, other))).toEqual([{ Target: ['Already there', 'Moved'] }]);
    expect(await sortOf(first)).toBeGreaterThan(await sortOf(there));

    expectRefusal(await call(app, 'PUT', '/api/lessons', teacher, { id: first, chapterId: 99_999, title: 'x', type: 'text', content: 'x' }), 400, 'chapterId');
    expectRefusal(await call(app, 'POST', '/api/lessons', teacher, { chapterId: 99_999, title: 'x', type: 'text', content: 'x' }), 400, 'chapterId');
    expect((await call(app, 'PUT', '/api/lessons', teacher, { id: 99_999, chapterId: target, title: 'x', type: 'text', content: 'x' })).statusCode).toBe(404);
    expectRefusal(await call(app, 'POST', '/api/lessons', teacher, { chapterId: target, title: 'x', type: 'quiz' }), 400, 'type');
    expectRefusal(await call(app, 'POST', '/api/lessons', teacher, { chapterId: target, title: 'x', type: 'text', content: 'x', completionPercent: 101 }), 400, 'completionPercent');
    expectRefusal(await call(app, 'GET', '/api/lessons/x', teacher), 400, 'id');
    expectRefusal(await call(app, 'GET', '/api/lessons/3000000000', teacher), 400, 'id');
    expectRefusal(await call(app, 'POST', '/api/lessons', teacher, { chapterId: 3_000_000_000, title: 'x', type: 'text', content: 'x' }), 400, 'chapterId');
    expect((await call(app, 'GET', '/api/lessons/99999', teacher)).statusCode).toBe(404);
  });

  it('deletes lessons, leaving their media in the library', async () => {
    const video = await insertMedia(app, 'video');
    const id = await created(app, teacher, '/api/lessons', { chapterId: chapter, title: 'Delete me', type: 'video', mediaId: video });
    expect((await call(app, 'DELETE', '/api/lessons', teacher, [id])).statusCode).toBe(200);
    expect((await call(app, 'GET', `/api/lessons/${id}`, teacher)).statusCode).toBe(404);
    expect(await db(app).selectFrom('edu_media').select('id').where('id', '=', video).execute()).toHaveLength(1);
    expect((await call(app, 'DELETE', '/api/lessons', teacher, [id])).statusCode).toBe(404);
  });
});

describe('media usage (what the media library asks the catalogue)', () => {
  let app: FastifyInstance;
  let teacher: string;
  beforeAll(async () => {
    app = await buildTestApp();
    teacher = await loginAs(app, 'teacher');
  });
  afterAll(async () => {
    await app.close();
  });

  it('knows which files a lesson or a cover uses, and who may see each as a learner', async () => {
    const usage = app.services.courses.mediaUsage;
    const [publishedCover, draftCover, previewVideo, lockedVideo, draftVideo, unused] = [
      await insertMedia(app, 'image'),
      await insertMedia(app, 'image'),
      await insertMedia(app, 'video'),
      await insertMedia(app, 'video'),
      await insertMedia(app, 'video'),
      await insertMedia(app, 'video'),
    ];
    const published = await createCourse(app, teacher, { title: 'Published', status: 'published', cover: publishedCover });
    const draft = await createCourse(app, teacher, { title: 'Draft', cover: draftCover });
    const publishedChapter = await createChapter(app, teacher, published);
    const draftChapter = await createChapter(app, teacher, draft);
    const video = (chapterId: number, mediaId: number, preview: boolean) =>
      created(app, teacher, '/api/lessons', { chapterId, title: 'v', type: 'video', mediaId, preview });
    await video(publishedChapter, previewVideo, true);
    await video(publishedChapter, lockedVideo, false);
    await video(draftChapter, draftVideo, true);

    expect((await usage.usedAmong([publishedCover, draftCover, previewVideo, lockedVideo, draftVideo, unused, 99_999])).sort((a, b) => a - b)).toEqual(
      [publishedCover, draftCover, previewVideo, lockedVideo, draftVideo].sort((a, b) => a - b),
    );
    expect(await usage.usedAmong([])).toEqual([]);

    const learner1 = await userId(app, 'learner1');
    const readable = async (userId: number) =>
      Object.fromEntries(
        await Promise.all(
          Object.entries({ publishedCover, draftCover, previewVideo, lockedVideo, draftVideo, unused }).map(async ([name, id]) => [name, await usage.readableBy(userId, id)]),
        ),
      );
    expect(await readable(learner1)).toEqual({
      publishedCover: true,
      draftCover: false,
      previewVideo: true,
      lockedVideo: false,
      draftVideo: false,
      unused: false,
    });

    // Enrolled (approved, studying or done) in a term of the course: every lesson of it, published or not.
    const publishedTerm = await createTerm(app, teacher, published);
    const draftTerm = await createTerm(app, teacher, draft);
    await insertApplicant(app, publishedTerm, 'learner1', 'in_progress');
    await insertApplicant(app, draftTerm, 'learner1', 'approved');
    await insertApplicant(app, publishedTerm, 'learner2', 'applied');
    await insertApplicant(app, draftTerm, 'learner3', 'rejected');
    expect(await readable(learner1)).toMatchObject({ lockedVideo: true, draftVideo: true, draftCover: false, unused: false });
    expect(await readable(await userId(app, 'learner2'))).toMatchObject({ lockedVideo: false, previewVideo: true });
    expect(await readable(await userId(app, 'learner3'))).toMatchObject({ draftVideo: false });
  });
});
