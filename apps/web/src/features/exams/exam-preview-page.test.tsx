import type { ExamPreview, PaperQuestion } from '@cloud-classroom/shared/exams';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders, stubBrowser } from '../../components/list-page/list-page-test-kit';
import { clickText, signInAs, stubRoutes } from '../../test/page-test-kit';
import ExamPreviewPage from './exam-preview-page';

await vi.hoisted(async () => {
  const { initTestI18n } = await import('../../components/list-page/list-page-test-kit');
  await initTestI18n('en-US');
});

vi.setConfig({ testTimeout: 60_000 });

const single = (id: number, stem: string, analysis: string): PaperQuestion => ({
  id,
  type: 'single',
  stem: `<p>${stem}</p>`,
  options: [
    { key: 'A', text: 'The stairs' },
    { key: 'B', text: 'The lift' },
  ],
  blanks: 0,
  score: 2,
  policy: null,
  answer: ['A'],
  blankRules: null,
  analysis: `<p>${analysis}</p>`,
});

const paper = (drawn: PaperQuestion): ExamPreview => ({
  examId: 7,
  title: 'Fire drill',
  description: 'Read each question.',
  limitMinutes: 30,
  totalScore: 14,
  passScore: 8,
  sections: [
    { title: 'Basics', questions: [single(1, 'Where is the exit?', 'Lifts stop in a fire.')] },
    { title: 'Drawn', questions: [drawn] },
  ],
});
const FIRST = paper(single(5, 'Who calls the brigade?', 'Whoever sees the fire.'));
const SECOND = paper(single(6, 'Where do we gather?', 'At the car park.'));

function renderAt(address: string) {
  return renderWithProviders(
    <MemoryRouter initialEntries={[address]}>
      <Routes>
        <Route path="/edu/preview-exam" element={<ExamPreviewPage />} />
      </Routes>
    </MemoryRouter>,
  );
}

describe('ExamPreviewPage', () => {
  beforeEach(() => {
    stubBrowser(375);
    signInAs(['admin']);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('shows the drawn paper with its facts, numbered through its sections, with the key until hidden', async () => {
    stubRoutes({ 'GET api/exams/7/preview': () => FIRST });
    renderAt('/edu/preview-exam?id=7');
    expect(await screen.findByRole('heading', { name: 'Fire drill' })).toBeTruthy();
    expect(screen.getByText('Total 14')).toBeTruthy();
    expect(screen.getByText('Pass 8')).toBeTruthy();
    expect(screen.getByText('30 min')).toBeTruthy();
    expect(screen.getByText('2 questions')).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Drawn' }).textContent).toContain('2.');
    expect(screen.getByText('Who calls the brigade?')).toBeTruthy();
    // Staff see the key and the analysis…
    expect(screen.getByText('Whoever sees the fire.')).toBeTruthy();
    // …until they hide them, to see the paper bare.
    fireEvent.click(screen.getByRole('switch'));
    await waitFor(() => expect(screen.queryByText('Whoever sees the fire.')).toBeNull());
    expect(screen.getByText('Who calls the brigade?')).toBeTruthy();
  });

  it('draws another paper on demand', async () => {
    const answers = [FIRST, SECOND];
    const api = stubRoutes({ 'GET api/exams/7/preview': () => answers.shift() ?? SECOND });
    renderAt('/edu/preview-exam?id=7');
    expect(await screen.findByText('Who calls the brigade?')).toBeTruthy();
    clickText('Draw again');
    expect(await screen.findByText('Where do we gather?')).toBeTruthy();
    expect(screen.queryByText('Who calls the brigade?')).toBeNull();
    expect(api.callsTo('GET api/exams/7/preview')).toHaveLength(2);
  });
});
