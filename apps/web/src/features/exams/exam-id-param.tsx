import { Button, Result } from 'antd';
import { useNavigate, useSearchParams } from 'react-router';
import { EXAMS_LIST_PATH } from './exam-paths';
import { useExamMessages } from './exams-messages';

/** The exam an /edu exam page works on: its `?id=`, a positive whole number, else undefined. */
export function useExamIdParam(): number | undefined {
  const [params] = useSearchParams();
  const id = Number(params.get('id'));
  return Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

/** What a page about one exam shows when the address names none: the way back to the list. */
export function NoExamChosen() {
  const t = useExamMessages();
  const navigate = useNavigate();
  return (
    <Result
      status="warning"
      title={t('exams.noTarget')}
      extra={
        <Button type="primary" onClick={() => void navigate(EXAMS_LIST_PATH)}>
          {t('exams.back')}
        </Button>
      }
    />
  );
}
