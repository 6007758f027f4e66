import {
  certificatePageMm,
  formatCalendarDate,
  type CertificateField,
  type CertificateFieldKind,
  type CertificateLayout,
} from '@cloud-classroom/shared/certificates';

// The editor's arithmetic, apart from React: a new field's default place, moving one within the
// page, and the sample text a field shows on the scaled page.

export const SAMPLE_ISSUED_ON = '2026-03-01';
export const SAMPLE_EXPIRES_ON = '2028-03-01';

/** Rounds to the tenth of a millimetre the layout's check allows for. */
export const roundMm = (mm: number) => Math.round(mm * 10) / 10;

/** A field's box on the page, mm: a text field's width and its first line's height, a QR code's square. */
export function fieldBox(field: CertificateField): { width: number; height: number } {
  if (field.kind === 'qrCode') return { width: field.size, height: field.size };
  return { width: field.width, height: (field.fontSize * 25.4) / 72 };
}

/** The field at (x, y), kept whole on the page. */
export function moveField(field: CertificateField, x: number, y: number, layout: Pick<CertificateLayout, 'pageSize' | 'orientation'>): CertificateField {
  const page = certificatePageMm(layout.pageSize, layout.orientation);
  const box = fieldBox(field);
  const clamp = (value: number, max: number) => roundMm(Math.min(Math.max(value, 0), Math.max(max, 0)));
  return { ...field, x: clamp(x, page.width - box.width), y: clamp(y, page.height - (field.kind === 'qrCode' ? box.height : 0)) };
}

/** A new field of that kind, centred across the page's width and placed a little below the last. */
export function newField(kind: CertificateFieldKind, layout: CertificateLayout, text: string): CertificateField {
  const page = certificatePageMm(layout.pageSize, layout.orientation);
  const y = Math.min(20 + layout.fields.length * 15, page.height - 30);
  if (kind === 'qrCode') return { kind, x: roundMm(page.width - 45), y: roundMm(page.height - 45), size: 30, color: '#000000' };
  const width = roundMm(Math.min(160, page.width - 20));
  const placement = { x: roundMm((page.width - width) / 2), y, width, fontSize: kind === 'holderName' ? 28 : 16, color: '#000000', align: 'center' as const, bold: kind === 'holderName' };
  if (kind === 'freeText') return { kind, ...placement, text };
  return { kind, ...placement, prefix: '', suffix: '', dateFormat: '{yyyy}-{MM}-{dd}' };
}

export type SampleValues = { holderName: string; title: string; score: string; number: string };

/** What the field prints with the sample data, as the PDF preview's sample would. */
export function sampleText(field: Exclude<CertificateField, { kind: 'qrCode' }>, sample: SampleValues): string {
  if (field.kind === 'freeText') return field.text;
  const value =
    field.kind === 'issuedOn'
      ? formatCalendarDate(SAMPLE_ISSUED_ON, field.dateFormat)
      : field.kind === 'expiresOn'
        ? formatCalendarDate(SAMPLE_EXPIRES_ON, field.dateFormat)
        : sample[field.kind];
  return `${field.prefix}${value}${field.suffix}`;
}
