import SearchOutlined from '@ant-design/icons/SearchOutlined';
import { Select } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useLayoutMessages } from './layout-messages';
import { createRouteSearch } from './route-search';
import { isExternalPath, searchEntriesOf, type ViewRoute } from './view-routes';

export function HeaderSearch({ routes }: { routes: readonly ViewRoute[] }) {
  const { t } = useTranslation();
  const m = useLayoutMessages();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [pattern, setPattern] = useState('');
  const search = useMemo(
    () => createRouteSearch(searchEntriesOf(routes).map((entry) => ({ ...entry, title: entry.title.map((title) => t(title)) }))),
    [routes, t],
  );
  const options = search(pattern).map((entry) => ({ value: entry.path, label: entry.title.join(' > ') }));

  const choose = (path: string) => {
    setPattern('');
    setOpen(false);
    if (isExternalPath(path)) window.open(path, '_blank', 'noopener');
    else navigate(path);
  };

  return (
    <div className={`header-search${open ? ' header-search--open' : ''}`}>
      <button type="button" className="navbar-icon" aria-label={m('navbar.search')} title={m('navbar.search')} onClick={() => setOpen(!open)}>
        <SearchOutlined />
      </button>
      {open && (
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
          onBlur={() => setOpen(false)}
        />
      )}
    </div>
  );
}
