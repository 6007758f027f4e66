import { DatePicker } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useListMessages } from './list-page-messages';

/** The wire's time format (`createTimeRangeSchema` in packages/shared/src/http.ts). */
export const WIRE_TIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';

/** `[start, end]` as the server reads `createTime=<start>&createTime=<end>`; the http client repeats the key. */
export type TimeRangeValue = [string, string];

export type DateRangeFilterProps = {
  value?: TimeRangeValue;
  onChange?: (value: TimeRangeValue | undefined) => void;
  /** For the form's label and the assistive name. */
  id?: string;
};

/**
 * Picks whole days: the start from 00:00:00, the end up to 23:59:59, both inclusive as the server
 * treats them. Use as `<Form.Item name="createTime"><DateRangeFilter /></Form.Item>` in a SearchBar.
 */
export function DateRangeFilter({ value, onChange, id }: DateRangeFilterProps) {
  const t = useListMessages();
  const picked: [Dayjs, Dayjs] | null = value ? [dayjs(value[0]), dayjs(value[1])] : null;
  return (
    <DatePicker.RangePicker
      id={id}
      value={picked}
      placeholder={[t('list.startDate'), t('list.endDate')]}
      style={{ width: '100%', maxWidth: 280 }}
      onChange={(range) => {
        const [start, end] = range ?? [];
        onChange?.(
          start && end
            ? [start.startOf('day').format(WIRE_TIME_FORMAT), end.endOf('day').format(WIRE_TIME_FORMAT)]
            : undefined,
        );
      }}
    />
  );
}
