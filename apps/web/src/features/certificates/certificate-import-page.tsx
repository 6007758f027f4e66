import { ArrowLeftOutlined, DownloadOutlined } from '@ant-design/icons';
import type { PermissionCheck } from '@cloud-classroom/shared/permission';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Card, Result } from 'antd';
import { useNavigate } from 'react-router';
import { useCheckPermission } from '../../components/permission';
import { SpreadsheetImport } from '../../components/spreadsheet-import/spreadsheet-import';
import { downloadFile } from '../../lib/download';
import { useLanguage } from '../../lib/use-menu-title';
import { certificateImportErrorText } from './certificate-import-text';
import { CERTIFICATES_LIST_PATH } from './certificate-paths';
import { CERTIFICATE_TEMPLATE_PATH, certificatesKeys, importCertificates } from './certificates-api';
import { useCertificateMessages } from './certificates-messages';

const ISSUE: readonly PermissionCheck[] = ['admin', 'cert:issue'];

/**
 * /edu/import-cert: certificates issued before the platform (or elsewhere), kept with their own
 * numbers and dates. The workbook is checked first (unknown accounts or templates, bad dates,
 * numbers listed twice or held already), then imported all or nothing (`SpreadsheetImport`).
 */
export default function CertificateImportPage() {
  const t = useCertificateMessages();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const may = useCheckPermission();
  const language = useLanguage();

  if (!may(ISSUE)) {
    // The routes answer 403 too; said here before anyone fills in a sheet for nothing.
    return (
      <Card size="small">
        <Result
          status="403"
          title={t('importCerts.forbidden')}
          extra={
            <Button icon={<ArrowLeftOutlined />} onClick={() => void navigate(CERTIFICATES_LIST_PATH)}>
              {t('importCerts.back')}
            </Button>
          }
        />
      </Card>
    );
  }

  return (
    <SpreadsheetImport
      texts={{
        title: t('importCerts.title'),
        templateStep: t('importCerts.templateStep'),
        back: t('importCerts.back'),
        toList: t('importCerts.toList'),
        empty: t('importCerts.empty'),
        doImport: (count) => t('importCerts.doImport', { count }),
        imported: (count) => t('importCerts.imported', { count }),
      }}
      templates={
        <Button
          icon={<DownloadOutlined />}
          onClick={() => void downloadFile(CERTIFICATE_TEMPLATE_PATH, {}, t('importCerts.templateName')).catch(() => undefined)}
        >
          {t('importCerts.template')}
        </Button>
      }
      send={(file, dryRun) => importCertificates(file, file.name, dryRun, { silent: true })}
      onImported={() => queryClient.invalidateQueries({ queryKey: certificatesKeys.certificates })}
      listPath={CERTIFICATES_LIST_PATH}
      errorText={(text) => certificateImportErrorText(text, t, language)}
    />
  );
}
