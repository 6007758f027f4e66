import type { ApplicantStatus } from '@cloud-classroom/shared/applicants';
import { Tag } from 'antd';
import { useApplicantMessages } from './applicants-messages';

const STATUS_COLORS: Record<ApplicantStatus, string> = {
  applied: 'gold',
  approved: 'blue',
  rejected: 'red',
  in_progress: 'cyan',
  completed: 'green',
};

export function ApplicantStatusTag({ status }: { status: ApplicantStatus }) {
  const t = useApplicantMessages();
  return <Tag color={STATUS_COLORS[status]}>{t(`applicants.status.${status}`)}</Tag>;
}
