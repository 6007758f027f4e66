import { ArrowLeftOutlined, UploadOutlined } from '@ant-design/icons';
import type { ImportResult } from '@cloud-classroom/shared/applicants';
import { localizeMessage } from '@cloud-classroom/shared/messages';
import { useMutation } from '@tanstack/react-query';
import { Alert, App, Button, Card, Flex, Result, Steps, Table, Typography, Upload } from 'antd';
import { useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { useLanguage } from '../../lib/use-menu-title';
import { showRefusal } from '../form/use-form-submit';
import { ImportPlan } from './import-plan';
import { useImportMessages } from './spreadsheet-import-messages';

type Checked = { file: File; result: ImportResult };

/** What names the rows being imported, in the page's language. */
export type SpreadsheetImportTexts = {
  title: string;
  /** Step 1's title: which template to download. */
  templateStep: string;
  /** The list the rows go into: the back button and the link after an import. */
  back: string;
  toList: string;
  /** A clean file without a single row. */
  empty: string;
  doImport: (count: number) => string;
  imported: (count: number) => string;
};

export type SpreadsheetImportProps = {
  texts: SpreadsheetImportTexts;
  /** Step 1's buttons, downloading the template. */
  templates: ReactNode;
  /** Sends the file to the import route, checking it only (`dryRun`) or importing it; silent, as the page shows a refusal itself. */
  send: (file: File, dryRun: boolean) => Promise<ImportResult>;
  /** After a real import (invalidate what the rows change). */
  onImported: (created: number) => Promise<void> | void;
  listPath: string;
  /** A row's problem in the page's language; the shared catalogue's where it knows the message by default. */
  errorText?: (message: string) => string;
  /** A row's type (`ImportRow.type`) in the page's language, for sheets whose rows have one. */
  typeText?: (type: string) => string;
};

/**
 * A back-office page importing the rows of a workbook (`importResultSchema` routes: questions,
 * certificates) in three steps. The upload is checked first (a dry run listing every bad row, or
 * for a file without any, what it will create sheet by sheet and the example rows it leaves out);
 * the import is all or nothing on the server, so it is offered only for a file without errors.
 */
export function SpreadsheetImport({ texts, templates, send, onImported, listPath, errorText, typeText }: SpreadsheetImportProps) {
  const t = useImportMessages();
  const language = useLanguage();
  const navigate = useNavigate();
  const { message } = App.useApp();
  const [checked, setChecked] = useState<Checked>();
  const [created, setCreated] = useState<number>();
  const [changed, setChanged] = useState(false);
  const check = useMutation({ mutationFn: (file: File) => send(file, true) });
  const run = useMutation({ mutationFn: (file: File) => send(file, false) });
  const problemOf = errorText ?? ((text: string) => localizeMessage(language, text));

  const checkFile = async (file: File) => {
    setChecked(undefined);
    setChanged(false);
    try {
      setChecked({ file, result: await check.mutateAsync(file) });
    } catch (error) {
      showRefusal(error, { language });
    }
  };

  const importNow = async () => {
    if (checked === undefined) return;
    try {
      const result = await run.mutateAsync(checked.file);
      if (result.errors.length > 0) {
        // The data changed between the check and the import (a duplicate made meanwhile): nothing was written.
        setChecked({ file: checked.file, result });
        setChanged(true);
        return;
      }
      message.success(texts.imported(result.created));
      await onImported(result.created);
      setCreated(result.created);
    } catch (error) {
      showRefusal(error, { language });
    }
  };

  const startOver = () => {
    setChecked(undefined);
    setCreated(undefined);
    setChanged(false);
  };

  const back = (
    <Button icon={<ArrowLeftOutlined />} onClick={() => void navigate(listPath)}>
      {texts.back}
    </Button>
  );

  if (created !== undefined) {
    return (
      <Card size="small">
        <Result
          status="success"
          title={texts.imported(created)}
          extra={[
            <Button key="list" type="primary" onClick={() => void navigate(listPath)}>
              {texts.toList}
            </Button>,
            <Button key="again" onClick={startOver}>
              {t('import.another')}
            </Button>,
          ]}
        />
      </Card>
    );
  }

  const result = checked?.result;
  const clean = result !== undefined && result.errors.length === 0 && result.valid > 0;
  const step = result === undefined ? 1 : clean ? 2 : 1;

  return (
    <Card size="small" title={texts.title} extra={back} className="spreadsheet-import">
      <Steps
        orientation="vertical"
        size="small"
        current={step}
        items={[
          {
            title: texts.templateStep,
            content: (
              <Flex gap={4} wrap style={{ margin: '4px 0 12px' }}>
                {templates}
              </Flex>
            ),
          },
          {
            title: t('import.uploadStep'),
            content: (
              <Flex vertical gap={12} style={{ margin: '4px 0 12px' }}>
                <Upload
                  accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
                  maxCount={1}
                  showUploadList={false}
                  beforeUpload={(file) => {
                    if (!file.name.toLowerCase().endsWith('.xlsx')) void message.error(t('import.notXlsx'));
                    else void checkFile(file);
                    // The page sends the file itself, twice: checked, then imported.
                    return false;
                  }}
                >
                  <Button icon={<UploadOutlined />} loading={check.isPending}>
                    {checked === undefined ? t('import.chooseFile') : clean ? checked.file.name : t('import.chooseAgain')}
                  </Button>
                </Upload>
                {check.isPending && <Typography.Text type="secondary">{t('import.checking')}</Typography.Text>}
                {result !== undefined && !check.isPending && (
                  <>
                    {changed && <Alert type="warning" showIcon title={t('import.changed')} />}
                    <Alert
                      type={clean ? 'success' : 'error'}
                      showIcon
                      title={`${checked?.file.name ?? ''}: ${t('import.checkResult', { total: result.total, valid: result.valid })}`}
                      description={
                        result.errors.length > 0
                          ? t('import.checkErrors', { count: result.errors.length })
                          : result.valid === 0
                            ? texts.empty
                            : t('import.checkClean')
                      }
                    />
                    {result.errors.length > 0 && (
                      <Table
                        size="small"
                        rowKey={(error) => `${error.row}-${error.column}-${error.message}`}
                        dataSource={result.errors}
                        pagination={result.errors.length > 20 ? { pageSize: 20, size: 'small', showSizeChanger: false } : false}
                        // No sideways scrolling: on a phone the problem wraps instead of hiding.
                        tableLayout="fixed"
                        columns={[
                          { key: 'row', title: t('import.errorRow'), dataIndex: 'row', width: 56 },
                          { key: 'column', title: t('import.errorColumn'), dataIndex: 'column', width: 96, ellipsis: { showTitle: true } },
                          {
                            key: 'message',
                            title: t('import.errorMessage'),
                            dataIndex: 'message',
                            render: (text: string) => problemOf(text),
                            onCell: () => ({ style: { overflowWrap: 'anywhere' } }),
                          },
                        ]}
                      />
                    )}
                    {result.errors.length === 0 && <ImportPlan result={result} typeText={typeText} />}
                  </>
                )}
              </Flex>
            ),
          },
          {
            title: t('import.importStep'),
            content: (
              <Flex vertical gap={8} align="flex-start" style={{ marginTop: 4 }}>
                <Typography.Text type="secondary">{t('import.allOrNothing')}</Typography.Text>
                <Button type="primary" disabled={!clean || check.isPending} loading={run.isPending} onClick={() => void importNow()}>
                  {clean ? texts.doImport(result.valid) : t('import.importStep')}
                </Button>
              </Flex>
            ),
          },
        ]}
      />
    </Card>
  );
}
