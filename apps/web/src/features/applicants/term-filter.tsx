import type { Term } from '@cloud-classroom/shared/courses';
import type { UseQueryResult } from '@tanstack/react-query';
import { Form, Select } from 'antd';
import { useApplicantMessages } from './applicants-messages';

/** The search bar's term of the selected course (none: all its terms), for the applicants and the rules. */
export function TermFilter({ id, label, terms, width }: { id: string; label: string; terms: UseQueryResult<Term[]>; width: number }) {
  const t = useApplicantMessages();
  return (
    <Form.Item name="termId">
      <Select
        id={id}
        allowClear
        placeholder={t('applicants.allTerms')}
        aria-label={label}
        loading={terms.isFetching}
        options={(terms.data ?? []).map((term) => ({ value: term.id, label: term.name }))}
        style={{ width, maxWidth: '100%' }}
      />
    </Form.Item>
  );
}
