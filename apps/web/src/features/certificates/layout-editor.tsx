import { DeleteOutlined, PlusOutlined, QrcodeOutlined, UploadOutlined } from '@ant-design/icons';
import {
  CERTIFICATE_ALIGNMENTS,
  CERTIFICATE_FIELD_KINDS,
  CERTIFICATE_ORIENTATIONS,
  CERTIFICATE_PAGE_SIZES,
  certificatePageMm,
  freeTextFieldSchema,
  valueFieldSchema,
  type CertificateField,
  type CertificateLayout,
} from '@cloud-classroom/shared/certificates';
import { App, Button, Card, ColorPicker, Dropdown, Empty, Flex, Form, InputNumber, List, Radio, Segmented, Switch, Typography, Upload } from 'antd';
import { useEffect, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { backgroundUrl, uploadBackground } from './certificates-api';
import { useCertificateMessages } from './certificates-messages';
import { fieldBox, moveField, newField, roundMm, sampleText, type SampleValues } from './layout-draft';
import { LimitedInput, LimitedTextArea } from '../../components/form/limited-input';

const PT_TO_MM = 25.4 / 72;

export type LayoutEditorProps = {
  value?: CertificateLayout;
  onChange?: (layout: CertificateLayout) => void;
  /** Messages of the layout's check, by field index. */
  errors?: ReadonlyMap<number, string>;
  /** The title the page shows for a title field: the template's name, as the server's sample prints it. */
  sampleTitle?: string;
};

/** The scaled page's width in CSS pixels, followed as its box resizes. */
function useBoxWidth() {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const box = ref.current;
    if (box === null) return undefined;
    setWidth(box.clientWidth);
    if (typeof ResizeObserver === 'undefined') return undefined;
    const observer = new ResizeObserver(() => setWidth(box.clientWidth));
    observer.observe(box);
    return () => observer.disconnect();
  }, []);
  return { ref, width };
}

type Drag = { index: number; pointerId: number; startX: number; startY: number; fieldX: number; fieldY: number };

/**
 * A template's layout: page size and orientation, the background, and the fields placed on a
 * scaled page — dragged with the pointer, moved with the arrow keys (1 mm, 10 mm with Shift), or
 * typed in millimetres — each with its size, colour and alignment; the page shows sample values
 * as they will print. The real PDF is the preview page's.
 */
export function LayoutEditor({ value, onChange, errors, sampleTitle }: LayoutEditorProps) {
  const t = useCertificateMessages();
  const { message } = App.useApp();
  const layout = value ?? { pageSize: 'A4', orientation: 'landscape', backgroundImage: null, fields: [] };
  const [selected, setSelected] = useState<number | null>(layout.fields.length > 0 ? 0 : null);
  // A background uploaded now is shown from the browser's copy, one saved earlier from the server.
  const [localBackground, setLocalBackground] = useState<{ key: string; url: string } | null>(null);
  const [uploading, setUploading] = useState(false);
  const drag = useRef<Drag | null>(null);
  const { ref: pageBox, width: boxWidth } = useBoxWidth();
  const page = certificatePageMm(layout.pageSize, layout.orientation);
  const scale = boxWidth > 0 ? boxWidth / page.width : 0;

  useEffect(() => () => (localBackground === null ? undefined : URL.revokeObjectURL(localBackground.url)), [localBackground]);

  const sample: SampleValues = {
    holderName: t('editor.sample.holderName'),
    title: sampleTitle?.trim() || t('editor.sample.title'),
    score: t('editor.sample.score'),
    number: t('editor.sample.number'),
  };
  const change = (next: Partial<CertificateLayout>) => onChange?.({ ...layout, ...next });
  const setField = (index: number, field: CertificateField) => change({ fields: layout.fields.map((old, at) => (at === index ? field : old)) });
  const patchField = (index: number, patch: Record<string, unknown>) => {
    const field = layout.fields[index];
    if (field !== undefined) setField(index, { ...field, ...patch } as CertificateField);
  };
  const current = selected === null ? undefined : layout.fields[selected];

  const onPointerDown = (event: PointerEvent<HTMLElement>, index: number) => {
    const field = layout.fields[index];
    if (field === undefined || scale === 0) return;
    setSelected(index);
    event.currentTarget.setPointerCapture?.(event.pointerId);
    drag.current = { index, pointerId: event.pointerId, startX: event.clientX, startY: event.clientY, fieldX: field.x, fieldY: field.y };
  };
  const onPointerMove = (event: PointerEvent<HTMLElement>) => {
    const moving = drag.current;
    if (moving === null || moving.pointerId !== event.pointerId) return;
    const field = layout.fields[moving.index];
    if (field === undefined || !Number.isFinite(event.clientX) || !Number.isFinite(event.clientY)) return;
    const x = moving.fieldX + (event.clientX - moving.startX) / scale;
    const y = moving.fieldY + (event.clientY - moving.startY) / scale;
    setField(moving.index, moveField(field, x, y, layout));
  };
  const onPointerUp = (event: PointerEvent<HTMLElement>) => {
    if (drag.current?.pointerId === event.pointerId) drag.current = null;
  };
  const onKeyDown = (event: KeyboardEvent<HTMLElement>, index: number) => {
    const field = layout.fields[index];
    const steps: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    const step = steps[event.key];
    if (field === undefined || step === undefined) return;
    event.preventDefault();
    const by = event.shiftKey ? 10 : 1;
    setField(index, moveField(field, field.x + step[0] * by, field.y + step[1] * by, layout));
  };

  const addField = (kind: CertificateField['kind']) => {
    change({ fields: [...layout.fields, newField(kind, layout, t('editor.sample.text'))] });
    setSelected(layout.fields.length);
  };
  const removeField = (index: number) => {
    change({ fields: layout.fields.filter((_field, at) => at !== index) });
    setSelected(null);
  };

  const background =
    layout.backgroundImage === null ? undefined : localBackground?.key === layout.backgroundImage ? localBackground.url : backgroundUrl(layout.backgroundImage);

  return (
    <div className="cert-editor">
      <Card size="small" className="cert-editor__page-card">
        <Flex wrap gap={12} align="center" className="cert-editor__page-bar">
          <Segmented
            aria-label={t('editor.pageSize')}
            value={layout.pageSize}
            options={CERTIFICATE_PAGE_SIZES.map((size) => ({ value: size, label: size }))}
            onChange={(pageSize) => change({ pageSize, fields: layout.fields.map((field) => moveField(field, field.x, field.y, { ...layout, pageSize })) })}
          />
          <Radio.Group
            optionType="button"
            aria-label={t('editor.orientation')}
            value={layout.orientation}
            options={CERTIFICATE_ORIENTATIONS.map((orientation) => ({ value: orientation, label: t(`editor.orientation.${orientation}`) }))}
            onChange={(event) => {
              const orientation = event.target.value as CertificateLayout['orientation'];
              change({ orientation, fields: layout.fields.map((field) => moveField(field, field.x, field.y, { ...layout, orientation })) });
            }}
          />
          <Upload
            accept="image/png,image/jpeg"
            showUploadList={false}
            beforeUpload={(file) => {
              setUploading(true);
              uploadBackground(file, file.name)
                .then(({ key }) => {
                  setLocalBackground({ key, url: URL.createObjectURL(file) });
                  change({ backgroundImage: key });
                  message.success(t('editor.uploaded'));
                })
                .catch(() => undefined)
                .finally(() => setUploading(false));
              return false;
            }}
          >
            <Button icon={<UploadOutlined />} loading={uploading}>
              {t('editor.uploadBackground')}
            </Button>
          </Upload>
          {layout.backgroundImage !== null && <Button onClick={() => change({ backgroundImage: null })}>{t('editor.removeBackground')}</Button>}
          {layout.backgroundImage === null && <Typography.Text type="secondary">{t('editor.noBackground')}</Typography.Text>}
        </Flex>
        <Typography.Paragraph type="secondary" className="cert-editor__hint">
          {t('editor.pageHint')}
        </Typography.Paragraph>
        <div ref={pageBox} className="cert-editor__page-box">
          <div
            className="cert-editor__page"
            role="group"
            aria-label={t('editor.pageLabel', { width: page.width, height: page.height })}
            style={{
              aspectRatio: `${page.width} / ${page.height}`,
              backgroundImage: background === undefined ? undefined : `url("${background}")`,
            }}
          >
            {scale > 0 &&
              layout.fields.map((field, index) => {
                const box = fieldBox(field);
                const name = t(`editor.kind.${field.kind}`);
                const common = {
                  className: `cert-editor__field${selected === index ? ' cert-editor__field--selected' : ''}${errors?.has(index) ? ' cert-editor__field--error' : ''}`,
                  role: 'button',
                  tabIndex: 0,
                  'aria-label': t('editor.selectField', { name }),
                  'aria-pressed': selected === index,
                  onPointerDown: (event: PointerEvent<HTMLDivElement>) => onPointerDown(event, index),
                  onPointerMove,
                  onPointerUp,
                  onPointerCancel: onPointerUp,
                  onFocus: () => setSelected(index),
                  onKeyDown: (event: KeyboardEvent<HTMLDivElement>) => onKeyDown(event, index),
                };
                if (field.kind === 'qrCode') {
                  return (
                    <div key={index} {...common} style={{ left: field.x * scale, top: field.y * scale, width: box.width * scale, height: box.height * scale, color: field.color }}>
                      <QrcodeOutlined style={{ fontSize: box.width * scale * 0.9 }} />
                    </div>
                  );
                }
                const fontPx = field.fontSize * PT_TO_MM * scale;
                return (
                  <div
                    key={index}
                    {...common}
                    style={{
                      left: field.x * scale,
                      top: field.y * scale,
                      width: field.width * scale,
                      fontSize: fontPx,
                      lineHeight: 1.15,
                      color: field.color,
                      textAlign: field.align,
                      fontWeight: field.bold ? 700 : 400,
                    }}
                  >
                    {sampleText(field, sample)}
                  </div>
                );
              })}
          </div>
        </div>
      </Card>
      <Card
        size="small"
        className="cert-editor__fields"
        title={t('editor.fields')}
        extra={
          <Dropdown
            menu={{ items: CERTIFICATE_FIELD_KINDS.map((kind) => ({ key: kind, label: t(`editor.kind.${kind}`) })), onClick: ({ key }) => addField(key as CertificateField['kind']) }}
            trigger={['click']}
          >
            <Button size="small" icon={<PlusOutlined />}>
              {t('editor.addField')}
            </Button>
          </Dropdown>
        }
      >
        {layout.fields.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('editor.noFields')} />
        ) : (
          <List
            size="small"
            dataSource={layout.fields.map((field, index) => ({ field, index }))}
            renderItem={({ field, index }) => (
              <List.Item
                className={`cert-editor__field-row${selected === index ? ' cert-editor__field-row--selected' : ''}`}
                actions={[
                  <Button key="remove" type="text" size="small" danger icon={<DeleteOutlined />} aria-label={t('editor.removeField')} onClick={() => removeField(index)} />,
                ]}
              >
                <Typography.Link onClick={() => setSelected(index)}>
                  {index + 1}. {t(`editor.kind.${field.kind}`)}
                </Typography.Link>
                {errors?.has(index) && <Typography.Text type="danger"> {errors.get(index)}</Typography.Text>}
              </List.Item>
            )}
          />
        )}
        {current !== undefined && selected !== null && (
          <FieldProperties key={selected} field={current} onPatch={(patch) => patchField(selected, patch)} />
        )}
      </Card>
    </div>
  );
}

/** The chosen field's numbers and looks; positions in mm, as the PDF places them. */
function FieldProperties({ field, onPatch }: { field: CertificateField; onPatch: (patch: Record<string, unknown>) => void }) {
  const t = useCertificateMessages();
  const mm = (name: 'x' | 'y' | 'width' | 'size', label: string, min: number) => (
    <Form.Item label={label} className="cert-editor__prop">
      <InputNumber
        aria-label={label}
        min={min}
        max={1000}
        step={1}
        precision={1}
        value={(field as Record<string, unknown>)[name] as number}
        onChange={(next) => typeof next === 'number' && onPatch({ [name]: roundMm(next) })}
      />
    </Form.Item>
  );
  return (
    <div className="cert-editor__props" role="group" aria-label={t(`editor.kind.${field.kind}`)}>
      <Typography.Text strong>{t(`editor.kind.${field.kind}`)}</Typography.Text>
      <Flex wrap gap={8}>
        {mm('x', t('editor.x'), 0)}
        {mm('y', t('editor.y'), 0)}
        {field.kind === 'qrCode' ? mm('size', t('editor.size'), 15) : mm('width', t('editor.width'), 5)}
        {field.kind !== 'qrCode' && (
          <Form.Item label={t('editor.fontSize')} className="cert-editor__prop">
            <InputNumber aria-label={t('editor.fontSize')} min={6} max={144} value={field.fontSize} onChange={(next) => typeof next === 'number' && onPatch({ fontSize: next })} />
          </Form.Item>
        )}
        <Form.Item label={t('editor.color')} className="cert-editor__prop">
          <ColorPicker value={field.color} disabledAlpha showText onChangeComplete={(color) => onPatch({ color: color.toHexString().slice(0, 7) })} />
        </Form.Item>
      </Flex>
      {field.kind !== 'qrCode' && (
        <Flex wrap gap={8} align="end">
          <Form.Item label={t('editor.align')} className="cert-editor__prop">
            <Radio.Group
              optionType="button"
              size="small"
              value={field.align}
              options={CERTIFICATE_ALIGNMENTS.map((align) => ({ value: align, label: t(`editor.align.${align}`) }))}
              onChange={(event) => onPatch({ align: event.target.value })}
            />
          </Form.Item>
          <Form.Item label={t('editor.bold')} className="cert-editor__prop">
            <Switch size="small" checked={field.bold} onChange={(bold) => onPatch({ bold })} aria-label={t('editor.bold')} />
          </Form.Item>
        </Flex>
      )}
      {field.kind === 'freeText' && (
        <Form.Item label={t('editor.text')} className="cert-editor__prop cert-editor__prop--wide">
          <LimitedTextArea schema={freeTextFieldSchema.shape.text} aria-label={t('editor.text')} autoSize={{ minRows: 1, maxRows: 4 }} value={field.text} onChange={(event) => onPatch({ text: event.target.value })} />
        </Form.Item>
      )}
      {field.kind !== 'qrCode' && field.kind !== 'freeText' && (
        <Flex wrap gap={8}>
          <Form.Item label={t('editor.prefix')} className="cert-editor__prop">
            <LimitedInput schema={valueFieldSchema.shape.prefix} aria-label={t('editor.prefix')} value={field.prefix} onChange={(event) => onPatch({ prefix: event.target.value })} />
          </Form.Item>
          <Form.Item label={t('editor.suffix')} className="cert-editor__prop">
            <LimitedInput schema={valueFieldSchema.shape.suffix} aria-label={t('editor.suffix')} value={field.suffix} onChange={(event) => onPatch({ suffix: event.target.value })} />
          </Form.Item>
          {(field.kind === 'issuedOn' || field.kind === 'expiresOn') && (
            <Form.Item label={t('editor.dateFormat')} className="cert-editor__prop">
              <LimitedInput schema={valueFieldSchema.shape.dateFormat} aria-label={t('editor.dateFormat')} value={field.dateFormat} onChange={(event) => onPatch({ dateFormat: event.target.value })} />
            </Form.Item>
          )}
        </Flex>
      )}
    </div>
  );
}
