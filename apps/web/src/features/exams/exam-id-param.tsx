import { Button, Result } from 'antd';
import { useNavigate, useSearchParams } from 'react-router';
import { EXAMS_LIST_PATH } from './exam-paths';
import { useExamMessages } from './exams-messages';

/** A positive whole number from the address, else undefined. */
export function idOfParam(value: string | null): number | undefined {
  const id = Number(value);
  return value !== null && Number.isSafeInteger(id) && id > 0 ? id : undefined;
}

/** The exam an /edu exam page works on: its `?id=` (the marking and report pages: `?exam=`), a positive whole number, else undefined. */
export function useExamIdParam(name: 'id' | 'exam' = 'id'): number | undefined {
  const [params] = useSearchParams();
  return idOfParam(params.get(name));
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
