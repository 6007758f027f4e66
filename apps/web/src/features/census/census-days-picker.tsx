import { DatePicker } from 'antd';
import dayjs from 'dayjs';
import { useListMessages } from '../../components/list-page/list-page-messages';

/** The census's calendar days, as the server reads `from` and `to`. */
export const CENSUS_DAY_FORMAT = 'YYYY-MM-DD';

export type CensusDays = [string, string];

/** Whole days, both ends counted; a Form.Item's control, or controlled by the record page. */
export function CensusDaysPicker({
  id,
  value,
  onChange,
  label,
  allowClear = true,
}: {
  id?: string;
  value?: CensusDays;
  onChange?: (days: CensusDays | undefined) => void;
  label: string;
  allowClear?: boolean;
}) {
  const tl = useListMessages();
  return (
    <DatePicker.RangePicker
      id={id}
      aria-label={label}
      allowClear={allowClear}
      value={value ? [dayjs(value[0]), dayjs(value[1])] : null}
      placeholder={[tl('list.startDate'), tl('list.endDate')]}
      style={{ width: '100%', maxWidth: 280 }}
      onChange={(range) => {
        const [start, end] = range ?? [];
        onChange?.(start && end ? [start.format(CENSUS_DAY_FORMAT), end.format(CENSUS_DAY_FORMAT)] : undefined);
      }}
    />
  );
}
