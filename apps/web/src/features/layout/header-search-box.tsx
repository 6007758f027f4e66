import { Select } from 'antd';
import type { Locale } from '@cloud-classroom/shared/locale';
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { useLanguage } from '../../lib/use-menu-title';
import { useLayoutMessages } from './layout-messages';
import { createRouteSearch } from './route-search';
import { isExternalPath, searchEntriesOf, type SearchEntry, type ViewRoute } from './view-routes';

const OTHER_LOCALE: Record<Locale, Locale> = { 'zh-CN': 'en-US', 'en-US': 'zh-CN' };

/**
 * The views to search, each shown titled in `locale` but found by its titles in either language:
 * people often know a menu by the name it has in the other one.
 */
function searchableEntries(routes: readonly ViewRoute[], locale: Locale): Array<SearchEntry & { label: string }> {
  const other = searchEntriesOf(routes, OTHER_LOCALE[locale]);
  return searchEntriesOf(routes, locale).map((entry, index) => ({
    path: entry.path,
    title: [...new Set([...entry.title, ...(other[index]?.title ?? [])])],
    label: entry.title.join(' > '),
  }));
}

export default function HeaderSearchBox({ routes, onClose }: { routes: readonly ViewRoute[]; onClose: () => void }) {
  const language = useLanguage();
  const m = useLayoutMessages();
  const navigate = useNavigate();
  const [pattern, setPattern] = useState('');
  const search = useMemo(() => createRouteSearch(searchableEntries(routes, language)), [routes, language]);
  const options = search(pattern).map((entry) => ({ value: entry.path, label: entry.label }));

  // SPEC §2: a result opens in the router, or in a new window when it is an http(s) address.
  const choose = (path: string) => {
    onClose();
    if (isExternalPath(path)) window.open(path, '_blank', 'noopener');
    else navigate(path);
  };

  return (
    <Select<string, { value: string; label: string }>
      className="header-search__select"
      autoFocus
      defaultOpen
      showSearch={{ filterOption: false, searchValue: pattern, onSearch: setPattern }}
      placeholder={m('navbar.search')}
      aria-label={m('navbar.search')}
      options={options}
      value={undefined}
      notFoundContent={null}
      onSelect={choose}
      onBlur={onClose}
    />
  );
}
