import type { CertTemplate } from '@cloud-classroom/shared/certificates';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders, stubBrowser } from '../../components/list-page/list-page-test-kit';
import { AUDIT, clickText, fill, signInAs, stubRoutes } from '../../test/page-test-kit';
import TemplateEditPage from './template-edit-page';

await vi.hoisted(async () => {
  const { initTestI18n } = await import('../../components/list-page/list-page-test-kit');
  await initTestI18n('en-US');
});

vi.setConfig({ testTimeout: 60_000 });

const TEMPLATE: CertTemplate = {
  id: 4,
  name: 'Standard',
  numberPattern: 'CC-{yyyy}-{seq:6}',
  validityMonths: null,
  version: 1,
  layout: {
    pageSize: 'A4',
    orientation: 'landscape',
    backgroundImage: null,
    fields: [{ kind: 'holderName', x: 68.5, y: 80, width: 160, fontSize: 28, color: '#000000', align: 'center', bold: true, prefix: '', suffix: '', dateFormat: '{yyyy}-{MM}-{dd}' }],
  },
  certificateCount: 3,
  ...AUDIT,
};

function Address() {
  const location = useLocation();
  return <output aria-label="address">{location.pathname + location.search}</output>;
}

function renderAt(address: string) {
  return renderWithProviders(
    <MemoryRouter initialEntries={[address]}>
      <Routes>
        <Route
          path="/edu/edit-cert"
          element={
            <>
              <TemplateEditPage />
              <Address />
            </>
          }
        />
      </Routes>
    </MemoryRouter>,
  );
}

// jsdom has no PointerEvent: a mouse event carrying a pointer id stands in, so a drag has positions.
class TestPointerEvent extends MouseEvent {
  readonly pointerId: number;
  constructor(type: string, init: PointerEventInit = {}) {
    super(type, init);
    this.pointerId = init.pointerId ?? 0;
  }
}

// jsdom lays nothing out: the scaled page gets a width, 2 px a millimetre of an A4 landscape.
const widthOf = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'clientWidth');
beforeAll(() => Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get: () => 594 }));
afterAll(() => {
  if (widthOf !== undefined) Object.defineProperty(HTMLElement.prototype, 'clientWidth', widthOf);
});

describe('TemplateEditPage', () => {
  beforeEach(() => {
    stubBrowser(1366);
    if (typeof window.PointerEvent === 'undefined') vi.stubGlobal('PointerEvent', TestPointerEvent);
    signInAs(['admin']);
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('adds a template: a field added, typed into place, nudged with the keyboard and dragged, saved with its layout', async () => {
    const created = { ...TEMPLATE, id: 9, certificateCount: 0 };
    const api = stubRoutes({ 'POST api/cert-templates': () => ({ id: 9 }), 'GET api/cert-templates/9': () => created });
    renderAt('/edu/edit-cert');
    fill(await screen.findByLabelText('Name'), 'Safety course');
    clickText('Add a field');
    fireEvent.click(await screen.findByText('Holder’s name'));
    const field = await screen.findByRole('button', { name: 'Select the field Holder’s name' });
    expect(field.textContent).toBe('Zhang San');
    fill(screen.getByLabelText('X (mm)'), '30');
    fireEvent.blur(screen.getByLabelText('X (mm)'));
    fill(screen.getByLabelText('Y (mm)'), '40');
    fireEvent.blur(screen.getByLabelText('Y (mm)'));
    // Arrow keys move by a millimetre, with Shift by ten.
    fireEvent.keyDown(field, { key: 'ArrowRight' });
    fireEvent.keyDown(field, { key: 'ArrowDown', shiftKey: true });
    // A drag of 20 px right at 2 px a millimetre moves it 10 mm.
    fireEvent.pointerDown(field, { pointerId: 1, clientX: 100, clientY: 100 });
    fireEvent.pointerMove(field, { pointerId: 1, clientX: 120, clientY: 100 });
    fireEvent.pointerUp(field, { pointerId: 1, clientX: 120, clientY: 100 });

    clickText('Save');
    await waitFor(() => expect(api.callsTo('POST api/cert-templates')).toHaveLength(1));
    const body = api.callsTo('POST api/cert-templates')[0]?.body as { name: string; numberPattern: string; layout: { fields: { kind: string; x: number; y: number }[] } };
    expect(body.name).toBe('Safety course');
    expect(body.numberPattern).toBe('CC-{yyyy}-{seq:6}');
    expect(body.layout.fields).toHaveLength(1);
    expect(body.layout.fields[0]).toMatchObject({ kind: 'holderName', y: 50 });
    // 30 typed, 1 by the key, 10 by the drag.
    expect(body.layout.fields[0]?.x).toBe(41);
    await waitFor(() => expect(screen.getByLabelText('address').textContent).toBe('/edu/edit-cert?id=9'));
  });

  it('says a template in use gets a new version, and names it once saved', async () => {
    const api = stubRoutes({ 'GET api/cert-templates/4': () => (api.callsTo('PUT api/cert-templates').length > 0 ? { ...TEMPLATE, version: 2 } : TEMPLATE), 'PUT api/cert-templates': () => undefined });
    renderAt('/edu/edit-cert?id=4');
    expect(await screen.findByText(/3 certificates were issued with this template/)).toBeTruthy();
    fill(screen.getByLabelText('Font size (pt)'), '32');
    fireEvent.blur(screen.getByLabelText('Font size (pt)'));
    clickText('Save');
    await waitFor(() => expect(api.callsTo('PUT api/cert-templates')).toHaveLength(1));
    expect(api.callsTo('PUT api/cert-templates')[0]?.body).toMatchObject({ id: 4, layout: { fields: [{ fontSize: 32 }] } });
    expect(await screen.findByText(/new ones get version 2/)).toBeTruthy();
  });

  it('shows a saved background on the page from the server, and none once removed', async () => {
    const key = 'cert-backgrounds/202605/0123456789abcdef0123456789abcdef.png';
    stubRoutes({ 'GET api/cert-templates/4': () => ({ ...TEMPLATE, layout: { ...TEMPLATE.layout, backgroundImage: key } }) });
    renderAt('/edu/edit-cert?id=4');
    const page = await screen.findByRole('group', { name: /^Certificate page/ });
    await waitFor(() => expect(page.style.backgroundImage).toBe(`url("/api/cert-templates/backgrounds?key=${encodeURIComponent(key)}")`));
    clickText('Remove background');
    await waitFor(() => expect(page.style.backgroundImage).toBe(''));
  });

  it('refuses a field running off the page before sending it, at the field', async () => {
    const api = stubRoutes({ 'GET api/cert-templates/4': () => TEMPLATE, 'PUT api/cert-templates': () => undefined });
    renderAt('/edu/edit-cert?id=4');
    fill(await screen.findByLabelText('X (mm)'), '200');
    fireEvent.blur(screen.getByLabelText('X (mm)'));
    clickText('Save');
    expect(await screen.findByText(/runs off the page's right edge/)).toBeTruthy();
    expect(api.callsTo('PUT api/cert-templates')).toHaveLength(0);
  });

  it('says so when the template does not exist', async () => {
    stubRoutes({});
    renderAt('/edu/edit-cert?id=77');
    expect(await screen.findByText('The certificate template does not exist or was deleted')).toBeTruthy();
  });
});
