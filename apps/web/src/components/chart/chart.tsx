import { BarChart, LineChart, type BarSeriesOption, type LineSeriesOption } from 'echarts/charts';
import {
  AriaComponent,
  GridComponent,
  LegendComponent,
  TooltipComponent,
  type AriaComponentOption,
  type GridComponentOption,
  type LegendComponentOption,
  type TooltipComponentOption,
} from 'echarts/components';
import { init, use as installParts, type ComposeOption } from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';
import './chart.css';

// Only what the pages draw (bars, lines, a legend), so ECharts stays a small chunk of its own.
installParts([BarChart, LineChart, GridComponent, TooltipComponent, LegendComponent, AriaComponent, SVGRenderer]);

export type ChartOption = ComposeOption<BarSeriesOption | LineSeriesOption | GridComponentOption | TooltipComponentOption | LegendComponentOption | AriaComponentOption>;

/** A chart as wide as its box; `label` names it for screen readers. Load it through `LazyChart`. */
export function Chart({ option, label }: { option: ChartOption; label: string }) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<ReturnType<typeof init>>(undefined);

  useEffect(() => {
    const element = box.current;
    if (element === null) return;
    const instance = init(element, undefined, { renderer: 'svg' });
    chart.current = instance;
    // The box changes width with the sidebar and the window, not only with the window.
    const observer = new ResizeObserver(() => instance.resize());
    observer.observe(element);
    return () => {
      observer.disconnect();
      instance.dispose();
      chart.current = undefined;
    };
  }, []);

  useEffect(() => {
    chart.current?.setOption({ aria: { enabled: true }, ...option }, true);
  }, [option]);

  return <div ref={box} className="chart" role="img" aria-label={label} />;
}
