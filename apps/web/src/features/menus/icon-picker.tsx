import { Button, Empty, Input, Popover } from 'antd';
import { useState } from 'react';
import { MENU_ICON_NAMES, MenuIcon } from '../../components/menu-icon';
import { useMenuMessages } from './menus-messages';
import './icon-picker.css';

type IconPickerProps = {
  /** An eladmin icon name; antd's Form.Item passes value and onChange. */
  value?: string | null;
  onChange?: (name: string | null) => void;
  id?: string;
};

/** eladmin's IconSelect: a read-only field that opens a searchable grid of the names MenuIcon knows. */
export function IconPicker({ value, onChange, id }: IconPickerProps) {
  const t = useMenuMessages();
  const [open, setOpen] = useState(false);
  const [filter, setFilter] = useState('');
  const needle = filter.trim().toLowerCase();
  const names = needle === '' ? MENU_ICON_NAMES : MENU_ICON_NAMES.filter((name) => name.toLowerCase().includes(needle));

  const choose = (name: string | null) => {
    onChange?.(name);
    setOpen(false);
    setFilter('');
  };

  const grid = (
    <div className="icon-picker">
      <Input.Search
        allowClear
        autoFocus
        aria-label={t('menus.iconSearch')}
        placeholder={t('menus.iconSearch')}
        value={filter}
        onChange={(event) => setFilter(event.target.value)}
      />
      {names.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('menus.iconNone')} />
      ) : (
        <div className="icon-picker-grid" role="listbox" aria-label={t('menus.icon')}>
          {names.map((name) => (
            <button
              key={name}
              type="button"
              role="option"
              aria-selected={name === value}
              title={name}
              className={name === value ? 'icon-picker-item icon-picker-item-active' : 'icon-picker-item'}
              onClick={() => choose(name)}
            >
              <MenuIcon name={name} />
              <span className="icon-picker-name">{name}</span>
            </button>
          ))}
        </div>
      )}
    </div>
  );

  return (
    <Popover content={grid} trigger="click" placement="bottomLeft" open={open} onOpenChange={setOpen} destroyOnHidden>
      <Input
        id={id}
        readOnly
        value={value ?? ''}
        placeholder={t('menus.iconPlaceholder')}
        // Always set: antd's Input would otherwise remount (and lose focus) when they appear.
        prefix={<MenuIcon name={value} />}
        suffix={
          value ? (
            <Button
              type="text"
              size="small"
              aria-label={t('menus.iconClear')}
              onClick={(event) => {
                // The click would otherwise reach the input and open the grid again.
                event.stopPropagation();
                choose(null);
              }}
            >
              ×
            </Button>
          ) : (
            <span />
          )
        }
      />
    </Popover>
  );
}
