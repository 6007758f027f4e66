import { BarChart, type BarSeriesOption } from 'echarts/charts';
import { AriaComponent, GridComponent, TooltipComponent, type AriaComponentOption, type GridComponentOption, type TooltipComponentOption } from 'echarts/components';
import { init, use as installParts, type ComposeOption } from 'echarts/core';
import { SVGRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';

// Only what the report draws, so the charts add to this page's chunk alone and stay small.
installParts([BarChart, GridComponent, TooltipComponent, AriaComponent, SVGRenderer]);

export type ReportChartOption = ComposeOption<BarSeriesOption | GridComponentOption | TooltipComponentOption | AriaComponentOption>;

/** A bar chart of the report, as wide as its box; `label` names it for screen readers. */
export function ReportChart({ option, label }: { option: ReportChartOption; label: string }) {
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

  return <div ref={box} className="report-chart" role="img" aria-label={label} />;
}
