import { DownloadOutlined } from '@ant-design/icons';
import { QUESTION_TYPES, type QuestionType } from '@cloud-classroom/shared/question-scoring';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from 'antd';
import { SpreadsheetImport } from '../../components/spreadsheet-import/spreadsheet-import';
import { downloadFile } from '../../lib/download';
import { useLanguage } from '../../lib/use-menu-title';
import { importErrorText } from './question-issue-text';
import { QUESTIONS_PAGE_PATH } from './question-list-page';
import { importQuestions, QUESTION_TEMPLATE_PATH, questionsKeys, templateQuery } from './questions-api';
import { useQuestionMessages } from './questions-messages';

/**
 * /edu/import-question: questions from a workbook, checked first, then imported all or nothing
 * (`SpreadsheetImport`); the template comes as the workbook of every type or one type's sheet.
 */
export default function QuestionImportPage() {
  const t = useQuestionMessages();
  const language = useLanguage();
  const queryClient = useQueryClient();

  const template = (type?: QuestionType) =>
    void downloadFile(QUESTION_TEMPLATE_PATH, templateQuery(type), type === undefined ? t('questions.templateName') : `${t('questions.templateName')}-${t(`question.type.${type}`)}`).catch(
      () => undefined,
    );

  return (
    <SpreadsheetImport
      texts={{
        title: t('questions.importTitle'),
        templateStep: t('questions.importStep1'),
        back: t('questions.back'),
        toList: t('questions.toList'),
        empty: t('questions.checkEmpty'),
        doImport: (count) => t('questions.doImport', { count }),
        imported: (count) => t('questions.imported', { count }),
      }}
      templates={
        <>
          <Button icon={<DownloadOutlined />} onClick={() => template()}>
            {t('questions.templateAll')}
          </Button>
          {QUESTION_TYPES.map((type) => (
            <Button key={type} type="link" icon={<DownloadOutlined />} onClick={() => template(type)}>
              {t(`question.type.${type}`)}
            </Button>
          ))}
        </>
      }
      send={(file, dryRun) => importQuestions(file, file.name, dryRun, { silent: true })}
      onImported={() => queryClient.invalidateQueries({ queryKey: questionsKeys.all })}
      listPath={QUESTIONS_PAGE_PATH}
      errorText={(text) => importErrorText(text, t, language)}
      typeText={(type) => t(`question.type.${type as QuestionType}`)}
    />
  );
}
