import type { CertTemplate, CertTemplateVersion } from '@cloud-classroom/shared/certificates';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders, stubBrowser } from '../../components/list-page/list-page-test-kit';
import { initI18n } from '../../lib/i18n';
import { AUDIT, signInAs, stubRoutes } from '../../test/page-test-kit';
// The exam preview's strings loaded first, as when a teacher opened it before this page: its
// subtitle once showed here in Chinese (both pages said 'preview.hint').
import '../exams/exams-messages';
import TemplatePreviewPage from './template-preview-page';

// pdf.js draws nothing in jsdom: the stand-in records which document the page asked for.
const opened = vi.hoisted(() => [] as string[]);
vi.mock('../progress/site/pdf-loader', () => ({
  loadPdfJs: async () => ({
    VerbosityLevel: { ERRORS: 0 },
    getDocument: ({ url }: { url: string }) => {
      opened.push(url);
      return { promise: new Promise(() => {}), destroy: () => undefined };
    },
  }),
}));

await vi.hoisted(async () => {
  const { initTestI18n } = await import('../../components/list-page/list-page-test-kit');
  await initTestI18n('en-US');
});

vi.setConfig({ testTimeout: 60_000 });

const LAYOUT = { pageSize: 'A4', orientation: 'landscape', backgroundImage: null, fields: [] } as const;
const TEMPLATE: CertTemplate = { id: 4, name: 'Standard', numberPattern: 'CC-{yyyy}-{seq:6}', validityMonths: null, version: 2, layout: { ...LAYOUT, fields: [] }, certificateCount: 3, ...AUDIT };
const version = (number: number): CertTemplateVersion => ({ id: number, version: number, layout: { ...LAYOUT, fields: [] }, certificateCount: 1, createBy: 'admin', createTime: `2026-0${number}-01 10:00:00` });

function renderAt(address: string) {
  return renderWithProviders(
    <MemoryRouter initialEntries={[address]}>
      <Routes>
        <Route path="/edu/preview-cert" element={<TemplatePreviewPage />} />
      </Routes>
    </MemoryRouter>,
  );
}

describe('TemplatePreviewPage', () => {
  beforeEach(() => {
    stubBrowser(1366);
    signInAs(['admin']);
    opened.length = 0;
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('shows the server’s PDF of the current version, and of an earlier one when chosen', async () => {
    stubRoutes({ 'GET api/cert-templates/4': () => TEMPLATE, 'GET api/cert-templates/4/versions': () => [version(2), version(1)] });
    renderAt('/edu/preview-cert?id=4');
    expect(await screen.findByText('Standard (version 2)')).toBeTruthy();
    await waitFor(() => expect(opened).toEqual(['/api/cert-templates/4/preview']));
    expect(screen.getByRole('link', { name: /Open in a new window/ }).getAttribute('href')).toBe('/api/cert-templates/4/preview');

    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Version' }));
    fireEvent.click(await screen.findByText('Version 1 · 2026-01-01'));
    expect(await screen.findByText('Standard (version 1)')).toBeTruthy();
    await waitFor(() => expect(opened).toContain('/api/cert-templates/4/preview?version=1'));
  });

  it('says what the preview is, its own words in either language', async () => {
    stubRoutes({ 'GET api/cert-templates/4': () => TEMPLATE, 'GET api/cert-templates/4/versions': () => [version(2)] });
    renderAt('/edu/preview-cert?id=4');
    expect(await screen.findByText('The real PDF, with sample data')).toBeTruthy();
    try {
      await act(() => initI18n('zh-CN'));
      expect(await screen.findByText('示例数据生成的真实 PDF')).toBeTruthy();
      expect(screen.queryByText(/这是随机抽取的一份试卷/)).toBeNull();
    } finally {
      await act(() => initI18n('en-US'));
    }
  });

  it('sends back to the list when the address names no template', () => {
    stubRoutes({});
    renderAt('/edu/preview-cert');
    expect(screen.getByText('No certificate template was named')).toBeTruthy();
  });
});
