import { DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import type { ImportResult } from '@cloud-classroom/shared/applicants';
import type { Term } from '@cloud-classroom/shared/courses';
import { localizeMessage } from '@cloud-classroom/shared/messages';
import { useMutation } from '@tanstack/react-query';
import { Alert, App, Button, Flex, Form, Modal, Select, Table, Typography, Upload } from 'antd';
import { useState } from 'react';
import { showRefusal } from '../../components/form/use-form-submit';
import { ImportPlan } from '../../components/spreadsheet-import/import-plan';
import { useListMessages } from '../../components/list-page/list-page-messages';
import { downloadFile } from '../../lib/download';
import { useLanguage } from '../../lib/use-menu-title';
import { useApplicantMessages } from './applicants-messages';
import { APPLICANT_TEMPLATE_PATH, importApplicants } from './applicants-api';

type Checked = { file: File; result: ImportResult };

export type ImportDialogProps = {
  terms: readonly Term[];
  termId?: number;
  onClose: () => void;
  onImported: () => void;
};

/**
 * Enrols the people of a spreadsheet into one term in two steps: the upload is checked first
 * (a dry run answering every row's errors), and only a sheet without errors may be imported.
 */
export function ImportDialog({ terms, termId: initialTermId, onClose, onImported }: ImportDialogProps) {
  const t = useApplicantMessages();
  const tl = useListMessages();
  const language = useLanguage();
  const { message } = App.useApp();
  const [termId, setTermId] = useState(initialTermId);
  const [checked, setChecked] = useState<Checked>();
  const check = useMutation({
    mutationFn: ({ file, term }: { file: File; term: number }) => importApplicants(term, file, file.name, true, { silent: true }),
  });
  const run = useMutation({
    mutationFn: ({ file, term }: { file: File; term: number }) => importApplicants(term, file, file.name, false, { silent: true }),
  });

  const checkFile = async (file: File, term: number | undefined) => {
    setChecked(undefined);
    if (term === undefined) return;
    try {
      const result = await check.mutateAsync({ file, term });
      setChecked({ file, result });
    } catch (error) {
      showRefusal(error, { language });
    }
  };

  const importNow = async () => {
    if (checked === undefined || termId === undefined) return;
    try {
      const result = await run.mutateAsync({ file: checked.file, term: termId });
      if (result.errors.length > 0) {
        // The people changed between the check and the import: show what is wrong now.
        setChecked({ file: checked.file, result });
        return;
      }
      message.success(t('applicants.imported', { created: result.created }));
      onImported();
      onClose();
    } catch (error) {
      showRefusal(error, { language });
    }
  };

  const result = checked?.result;
  const ready = result !== undefined && result.errors.length === 0 && result.valid > 0;

  return (
    <Modal
      open
      title={t('applicants.importTitle')}
      width={640}
      onCancel={onClose}
      destroyOnHidden
      mask={{ closable: false }}
      okText={t('applicants.doImport')}
      cancelText={tl('common.cancel')}
      okButtonProps={{ disabled: !ready }}
      confirmLoading={run.isPending}
      onOk={() => void importNow()}
    >
      <Flex vertical gap={12}>
        <Form layout="vertical" component="div">
          <Form.Item label={t('applicants.term')} required style={{ marginBottom: 0 }}>
            <Select
              aria-label={t('applicants.term')}
              placeholder={t('applicants.chooseTerm')}
              value={termId}
              options={terms.map((term) => ({ value: term.id, label: term.name }))}
              onChange={(next: number) => {
                setTermId(next);
                // A check holds for one term: its capacity and who is already in it.
                if (checked !== undefined) void checkFile(checked.file, next);
              }}
            />
          </Form.Item>
        </Form>
        <div>
          <Typography.Paragraph style={{ marginBottom: 4 }}>1. {t('applicants.importStep1')}</Typography.Paragraph>
          <Button
            type="link"
            icon={<DownloadOutlined />}
            style={{ paddingInline: 0 }}
            onClick={() => void downloadFile(APPLICANT_TEMPLATE_PATH, {}, t('applicants.templateName')).catch(() => undefined)}
          >
            {t('applicants.downloadTemplate')}
          </Button>
        </div>
        <div>
          <Typography.Paragraph style={{ marginBottom: 4 }}>2. {t('applicants.importStep2')}</Typography.Paragraph>
          <Upload
            accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            maxCount={1}
            showUploadList={false}
            disabled={termId === undefined}
            beforeUpload={(file) => {
              if (!file.name.toLowerCase().endsWith('.xlsx')) {
                void message.error(t('applicants.notXlsx'));
              } else {
                void checkFile(file, termId);
              }
              // The dialog sends the file itself, twice: checked, then imported.
              return false;
            }}
          >
            <Button icon={<UploadOutlined />} loading={check.isPending} disabled={termId === undefined}>
              {checked === undefined ? t('applicants.chooseFile') : checked.file.name}
            </Button>
          </Upload>
        </div>
        {check.isPending && <Typography.Text type="secondary">{t('applicants.checking')}</Typography.Text>}
        {result !== undefined && !check.isPending && (
          <>
            <Alert
              type={result.errors.length > 0 ? 'error' : 'success'}
              showIcon
              title={t('applicants.checkResult', { total: result.total, valid: result.valid })}
              description={
                result.errors.length > 0 ? t('applicants.checkErrors', { count: result.errors.length }) : t('applicants.checkClean')
              }
            />
            {result.errors.length > 0 && (
              <Table
                size="small"
                rowKey={(error) => `${error.row}-${error.column}-${error.message}`}
                dataSource={result.errors}
                pagination={result.errors.length > 10 ? { pageSize: 10, size: 'small' } : false}
                scroll={{ x: 'max-content' }}
                columns={[
                  { key: 'row', title: t('applicants.errorRow'), dataIndex: 'row', width: 70 },
                  { key: 'column', title: t('applicants.errorColumn'), dataIndex: 'column', width: 110 },
                  {
                    key: 'message',
                    title: t('applicants.errorMessage'),
                    dataIndex: 'message',
                    render: (text: string) => localizeMessage(language, text),
                  },
                ]}
              />
            )}
            {result.errors.length === 0 && <ImportPlan result={result} />}
          </>
        )}
      </Flex>
    </Modal>
  );
}
