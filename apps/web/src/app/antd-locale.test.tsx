import { cleanup, render } from '@testing-library/react';
import { ConfigProvider, DatePicker } from 'antd';
import dayjs from 'dayjs';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { stubBrowser } from '../components/list-page/list-page-test-kit';
import { antdLocaleFor } from './antd-locale';

function openPicker(language: string) {
  const { baseElement } = render(
    <ConfigProvider locale={antdLocaleFor(language)}>
      <DatePicker open defaultPickerValue={dayjs('2026-12-07')} getPopupContainer={(node) => node.parentElement ?? document.body} />
    </ConfigProvider>,
  );
  const panel = baseElement.querySelector('.ant-picker-panel');
  return { header: panel?.querySelector('.ant-picker-header-view')?.textContent ?? '', weekdays: [...(panel?.querySelectorAll('thead th') ?? [])].map((cell) => cell.textContent) };
}

describe('the date pickers speak the chosen language', () => {
  beforeEach(() => stubBrowser());
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('in Chinese: the month, the year and the weekdays', () => {
    const { header, weekdays } = openPicker('zh-CN');
    expect(header).toContain('2026年');
    expect(header).toContain('12月');
    expect(weekdays).toEqual(['一', '二', '三', '四', '五', '六', '日']);
  });

  it('in English, after Chinese', () => {
    openPicker('zh-CN');
    cleanup();
    const { header, weekdays } = openPicker('en-US');
    expect(header).toContain('Dec');
    expect(header).toContain('2026');
    expect(weekdays).toEqual(['Su', 'Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa']);
  });
});
