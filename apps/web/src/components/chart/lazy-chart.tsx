import { Skeleton } from 'antd';
import { lazy, Suspense } from 'react';
import type { ChartOption } from './chart';

// ECharts comes in its own chunk, asked for as soon as a page renders a chart: the page's figures
// and tables show while it loads, and pages without charts never fetch it.
const LoadedChart = lazy(() => import('./chart').then((module) => ({ default: module.Chart })));

/** `Chart`, loaded on first render, a skeleton of its size meanwhile. */
export function LazyChart(props: { option: ChartOption; label: string }) {
  return (
    <Suspense fallback={<Skeleton.Node active className="chart" />}>
      <LoadedChart {...props} />
    </Suspense>
  );
}
