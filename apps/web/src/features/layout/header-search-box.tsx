import { Select } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useLayoutMessages } from './layout-messages';
import { createRouteSearch } from './route-search';
import { isExternalPath, searchEntriesOf, type ViewRoute } from './view-routes';

export default function HeaderSearchBox({ routes, onClose }: { routes: readonly ViewRoute[]; onClose: () => void }) {
  const { t } = useTranslation();
  const m = useLayoutMessages();
  const navigate = useNavigate();
  const [pattern, setPattern] = useState('');
  const search = useMemo(
    () => createRouteSearch(searchEntriesOf(routes).map((entry) => ({ ...entry, title: entry.title.map((title) => t(title)) }))),
    [routes, t],
  );
  const options = search(pattern).map((entry) => ({ value: entry.path, label: entry.title.join(' > ') }));

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
