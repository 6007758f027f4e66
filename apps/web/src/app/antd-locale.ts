import type { Locale as AntdLocale } from 'antd/es/locale';
import enUS from 'antd/locale/en_US';
import zhCN from 'antd/locale/zh_CN';
// antd's Chinese locale names dayjs's 'zh-cn' for the date pickers' months, weekdays and years;
// without this file loaded dayjs falls back to English: "2026年 Dec", "Su Mo Tu".
import 'dayjs/locale/zh-cn';

/** antd's strings (and, through them, the date pickers' dayjs locale) for the app's language. */
export function antdLocaleFor(language: string): AntdLocale {
  return language === 'en-US' ? enUS : zhCN;
}
