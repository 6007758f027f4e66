import { Button, Result } from 'antd';
import { useNavigate, useSearchParams } from 'react-router';
import { idOfParam } from '../exams/exam-id-param';
import { TEMPLATES_LIST_PATH } from './certificate-paths';
import { useCertificateMessages } from './certificates-messages';

/** The template a certificate page works on: its `?id=` (the issue page: `?template=`), a positive whole number, else undefined. */
export function useTemplateIdParam(name: 'id' | 'template' = 'id'): number | undefined {
  const [params] = useSearchParams();
  return idOfParam(params.get(name));
}

/** What a template page shows when it cannot show its template: the way back to the list. */
export function BackToTemplates({ text }: { text: string }) {
  const t = useCertificateMessages();
  const navigate = useNavigate();
  return (
    <Result
      status="warning"
      title={text}
      extra={
        <Button type="primary" onClick={() => void navigate(TEMPLATES_LIST_PATH)}>
          {t('templates.back')}
        </Button>
      }
    />
  );
}
