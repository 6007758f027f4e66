import { ArrowLeftOutlined, DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import type { ImportResult } from '@cloud-classroom/shared/applicants';
import { QUESTION_TYPES, type QuestionType } from '@cloud-classroom/shared/question-scoring';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, App, Button, Card, Flex, Result, Steps, Table, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { showRefusal } from '../../components/form/use-form-submit';
import { downloadFile } from '../../lib/download';
import { useLanguage } from '../../lib/use-menu-title';
import { importErrorText } from './question-issue-text';
import { QUESTIONS_PAGE_PATH } from './question-list-page';
import { importQuestions, QUESTION_TEMPLATE_PATH, questionsKeys, templateQuery } from './questions-api';
import { useQuestionMessages } from './questions-messages';

type Checked = { file: File; result: ImportResult };

/**
 * /edu/import-question: questions from a workbook in three steps. The upload is checked first (a
 * dry run listing every bad row); the import is all or nothing on the server, so it is offered
 * only for a file without errors.
 */
export default function QuestionImportPage() {
  const t = useQuestionMessages();
  const language = useLanguage();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { message } = App.useApp();
  const [checked, setChecked] = useState<Checked>();
  const [created, setCreated] = useState<number>();
  const [changed, setChanged] = useState(false);
  const check = useMutation({ mutationFn: (file: File) => importQuestions(file, file.name, true, { silent: true }) });
  const run = useMutation({ mutationFn: (file: File) => importQuestions(file, file.name, false, { silent: true }) });

  const template = (type?: QuestionType) =>
    void downloadFile(QUESTION_TEMPLATE_PATH, templateQuery(type), type === undefined ? t('questions.templateName') : `${t('questions.templateName')}-${t(`question.type.${type}`)}`).catch(
      () => undefined,
    );

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
        // The bank changed between the check and the import (a duplicate made meanwhile): nothing was written.
        setChecked({ file: checked.file, result });
        setChanged(true);
        return;
      }
      message.success(t('questions.imported', { count: result.created }));
      await queryClient.invalidateQueries({ queryKey: questionsKeys.all });
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
    <Button icon={<ArrowLeftOutlined />} onClick={() => void navigate(QUESTIONS_PAGE_PATH)}>
      {t('questions.back')}
    </Button>
  );

  if (created !== undefined) {
    return (
      <Card size="small">
        <Result
          status="success"
          title={t('questions.imported', { count: created })}
          extra={[
            <Button key="list" type="primary" onClick={() => void navigate(QUESTIONS_PAGE_PATH)}>
              {t('questions.toList')}
            </Button>,
            <Button key="again" onClick={startOver}>
              {t('questions.importAnother')}
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
    <Card size="small" title={t('questions.importTitle')} extra={back} className="question-import">
      <Steps
        orientation="vertical"
        size="small"
        current={step}
        items={[
          {
            title: t('questions.importStep1'),
            content: (
              <Flex gap={4} wrap style={{ margin: '4px 0 12px' }}>
                <Button icon={<DownloadOutlined />} onClick={() => template()}>
                  {t('questions.templateAll')}
                </Button>
                {QUESTION_TYPES.map((type) => (
                  <Button key={type} type="link" icon={<DownloadOutlined />} onClick={() => template(type)}>
                    {t(`question.type.${type}`)}
                  </Button>
                ))}
              </Flex>
            ),
          },
          {
            title: t('questions.importStep2'),
            content: (
              <Flex vertical gap={12} style={{ margin: '4px 0 12px' }}>
                <Upload
                  accept=".xlsx,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
                  maxCount={1}
                  showUploadList={false}
                  beforeUpload={(file) => {
                    if (!file.name.toLowerCase().endsWith('.xlsx')) void message.error(t('questions.notXlsx'));
                    else void checkFile(file);
                    // The page sends the file itself, twice: checked, then imported.
                    return false;
                  }}
                >
                  <Button icon={<UploadOutlined />} loading={check.isPending}>
                    {checked === undefined ? t('questions.chooseFile') : clean ? checked.file.name : t('questions.chooseAgain')}
                  </Button>
                </Upload>
                {check.isPending && <Typography.Text type="secondary">{t('questions.checking')}</Typography.Text>}
                {result !== undefined && !check.isPending && (
                  <>
                    {changed && <Alert type="warning" showIcon title={t('questions.importChanged')} />}
                    <Alert
                      type={clean ? 'success' : 'error'}
                      showIcon
                      title={`${checked?.file.name ?? ''}: ${t('questions.checkResult', { total: result.total, valid: result.valid })}`}
                      description={
                        result.errors.length > 0
                          ? t('questions.checkErrors', { count: result.errors.length })
                          : result.valid === 0
                            ? t('questions.checkEmpty')
                            : t('questions.checkClean')
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
                          { key: 'row', title: t('questions.errorRow'), dataIndex: 'row', width: 56 },
                          { key: 'column', title: t('questions.errorColumn'), dataIndex: 'column', width: 96, ellipsis: { showTitle: true } },
                          {
                            key: 'message',
                            title: t('questions.errorMessage'),
                            dataIndex: 'message',
                            render: (text: string) => importErrorText(text, t, language),
                            onCell: () => ({ style: { overflowWrap: 'anywhere' } }),
                          },
                        ]}
                      />
                    )}
                  </>
                )}
              </Flex>
            ),
          },
          {
            title: t('questions.importStep3'),
            content: (
              <Flex vertical gap={8} align="flex-start" style={{ marginTop: 4 }}>
                <Typography.Text type="secondary">{t('questions.allOrNothing')}</Typography.Text>
                <Button type="primary" disabled={!clean || check.isPending} loading={run.isPending} onClick={() => void importNow()}>
                  {clean ? t('questions.doImport', { count: result.valid }) : t('questions.importStep3')}
                </Button>
              </Flex>
            ),
          },
        ]}
      />
    </Card>
  );
}
