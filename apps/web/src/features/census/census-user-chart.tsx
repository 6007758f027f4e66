import type { CensusUser } from '@cloud-classroom/shared/census';
import { useMemo } from 'react';
import type { ChartOption } from '../../components/chart/chart';
import { LazyChart } from '../../components/chart/lazy-chart';
import type { CensusTranslate } from './census-messages';
import { studyTime } from './study-time';

function studyOption(days: CensusUser['days'], t: CensusTranslate): ChartOption {
  return {
    grid: { left: 48, right: 16, top: 24, bottom: 32 },
    tooltip: {
      trigger: 'axis',
      formatter: (params) => {
        const first = Array.isArray(params) ? params[0] : params;
        const index = first?.dataIndex ?? 0;
        const day = days[index];
        return day === undefined ? '' : `${day.day}<br/>${studyTime(day.seconds, t)}`;
      },
    },
    xAxis: { type: 'category', data: days.map((day) => day.day.slice(5)) },
    yAxis: { type: 'value', name: t('census.chartMinutes'), minInterval: 1 },
    series: [{ type: 'bar', name: t('census.studyTime'), data: days.map((day) => Math.round(day.seconds / 60)), itemStyle: { color: '#1677ff' } }],
  };
}

/** Study minutes per day of the record's range. */
export function CensusUserChart({ days, t }: { days: CensusUser['days']; t: CensusTranslate }) {
  const option = useMemo(() => studyOption(days, t), [days, t]);
  return (
    <div className="census-user__chart">
      <LazyChart option={option} label={t('census.chart')} />
    </div>
  );
}
