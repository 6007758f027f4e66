import { certificateReissueSchema, certificateRevokeSchema, type Certificate } from '@cloud-classroom/shared/certificates';
import { Form, Typography } from 'antd';
import { LimitedInput, LimitedTextArea } from '../../components/form/limited-input';
import { FormDialog } from '../../components/list-page/form-dialog';
import { zodRule } from '../../components/list-page/zod-rule';
import { reissueCertificate, revokeCertificates } from './certificates-api';
import { useCertificateMessages } from './certificates-messages';

/** Revokes the chosen certificates with the reason the public check and the holder will see. */
export function RevokeDialog({ rows, onClose, onDone }: { rows: readonly Certificate[]; onClose: () => void; onDone: () => void }) {
  const t = useCertificateMessages();
  return (
    <FormDialog<{ reason: string }, void>
      open
      title={t('certs.revokeTitle', { count: rows.length })}
      width={520}
      // "Reason for revoking" on one line: at 90 px it broke into three, its colon mid-label.
      labelWidth={150}
      initialValues={{ reason: '' }}
      successMessage={t('certs.revoked')}
      okText={t('certs.revoke')}
      cancelText={t('certs.cancel')}
      danger
      onSubmit={(values, request) =>
        revokeCertificates(
          rows.map((row) => row.id),
          values.reason,
          request,
        )
      }
      onSuccess={onDone}
      onClose={onClose}
    >
      <Typography.Paragraph type="secondary">{rows.map((row) => `${row.number} · ${row.holderName}`).join('、')}</Typography.Paragraph>
      <Form.Item name="reason" label={t('certs.revokeReason')} extra={t('certs.revokeHint')} rules={[zodRule(certificateRevokeSchema.shape.reason)]}>
        <LimitedTextArea schema={certificateRevokeSchema.shape.reason} rows={3}  placeholder={t('certs.reasonPlaceholder')} />
      </Form.Item>
    </FormDialog>
  );
}

/** Re-issues one certificate under a corrected name; the old one stays, superseded. */
export function ReissueDialog({ row, onClose, onDone }: { row: Certificate; onClose: () => void; onDone: (number: string) => void }) {
  const t = useCertificateMessages();
  return (
    <FormDialog<{ holderName: string }, { id: number; number: string }>
      open
      title={t('certs.reissueTitle', { number: row.number })}
      width={520}
      labelWidth={110}
      initialValues={{ holderName: row.holderName }}
      successMessage={null}
      okText={t('certs.reissue')}
      cancelText={t('certs.cancel')}
      onSubmit={(values, request) => reissueCertificate(row.id, values.holderName.trim() || null, request)}
      onSuccess={(result) => onDone(result.number)}
      onClose={onClose}
    >
      <Typography.Paragraph type="secondary">{t('certs.reissueHint')}</Typography.Paragraph>
      <Form.Item name="holderName" label={t('certs.holderName')} extra={t('certs.holderNameHint')} rules={[zodRule(certificateReissueSchema.shape.holderName)]}>
        <LimitedInput schema={certificateReissueSchema.shape.holderName} />
      </Form.Item>
    </FormDialog>
  );
}
