import { adminSession } from '../admin-session.js';
import type { ThroughputScenario } from '../scenario.js';

/** How many courses the catalogue holds: a page of 20 is then one of several. */
const COURSES = 48;
const CHAPTERS_PER_COURSE = 3;
const LESSONS_PER_CHAPTER = 2;
const TERMS_PER_COURSE = 2;

const PATH = '/api/courses?page=0&size=20';

/** The created row's id from a POST that answers 201 `{ id }`. */
async function create(baseUrl: string, headers: Record<string, string>, path: string, body: unknown): Promise<number> {
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (response.status !== 201) throw new Error(`bench: POST ${path} answered ${response.status} ${await response.text()}`);
  return ((await response.json()) as { id: number }).id;
}

/**
 * A catalogue as a training department's back office shows it, made through the real API as the
 * administrator: three categories with a sub-category each, and courses filed under them (a few
 * in none), each with a summary, a description of a few paragraphs, chapters of text lessons,
 * and terms.
 */
async function catalogue(baseUrl: string): Promise<Record<string, string>> {
  const headers = await adminSession(baseUrl);
  const categories: number[] = [];
  for (const [index, name] of ['管理能力', '专业技能', '合规与安全'].entries()) {
    const id = await create(baseUrl, headers, '/api/categories', { name, pid: null, sort: index + 1 });
    categories.push(id, await create(baseUrl, headers, '/api/categories', { name: `${name}进阶`, pid: id, sort: 1 }));
  }
  const paragraph = '<p>本课程面向一线团队负责人，结合真实案例讲解目标设定、任务分解、绩效反馈与跨部门协作的方法，<strong>每章配有练习</strong>。</p>';
  for (let n = 1; n <= COURSES; n += 1) {
    const courseId = await create(baseUrl, headers, '/api/courses', {
      title: `课程 ${n}：从入门到实践`,
      categoryId: n % 8 === 0 ? null : categories[n % categories.length],
      status: n % 5 === 0 ? 'draft' : 'published',
      required: n % 3 === 0,
      summary: `第 ${n} 门课程的简介：学完能独立完成日常工作中的相关任务。`,
      description: paragraph.repeat(4),
    });
    for (let c = 1; c <= CHAPTERS_PER_COURSE; c += 1) {
      const chapterId = await create(baseUrl, headers, '/api/chapters', { courseId, title: `第 ${c} 章` });
      for (let l = 1; l <= LESSONS_PER_CHAPTER; l += 1) {
        await create(baseUrl, headers, '/api/lessons', { chapterId, title: `第 ${c}.${l} 节`, type: 'text', content: paragraph });
      }
    }
    for (let t = 1; t <= TERMS_PER_COURSE; t += 1) {
      const month = String(t * 3).padStart(2, '0');
      await create(baseUrl, headers, '/api/terms', {
        courseId,
        name: `2025 年第 ${t} 期`,
        startAt: `2025-${month}-01 09:00:00`,
        endAt: `2025-${month}-28 18:00:00`,
        capacity: 30,
      });
    }
  }
  return headers;
}

export const coursesPage: ThroughputScenario = {
  kind: 'throughput',
  name: 'authenticated GET api/courses, a page of 20 with names and counts',
  target: 0.6,
  subject: { server: 'servers/app-server.ts', path: PATH, prepare: catalogue },
  reference: { server: 'servers/bare-courses.ts', path: PATH },
  shareData: true,
  sameAnswer: true,
};
