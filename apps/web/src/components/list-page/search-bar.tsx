import { FilterOutlined, ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { Button, Form, Grid, Space } from 'antd';
import { Children, isValidElement, useId, useState, type ReactNode } from 'react';
import { useListMessages } from './list-page-messages';
import type { ListFilter, ListPageState } from './use-list-page';

export type SearchBarProps<Filter extends ListFilter> = {
  list: Pick<ListPageState<unknown, Filter>, 'filter' | 'search' | 'reset'>;
  /** `<Form.Item name="<filter key>">` fields; their values are merged into the list's filter on search. */
  children: ReactNode;
};

/** The filter keys of the bar's own fields (`<Form.Item name="…">` children). */
function fieldNamesOf(children: ReactNode): string[] {
  return Children.toArray(children).flatMap((child) => {
    const name: unknown = isValidElement<{ name?: unknown }>(child) ? child.props.name : undefined;
    return typeof name === 'string' ? [name] : [];
  });
}

const inUse = (value: unknown) => value !== undefined && value !== null && value !== '' && !(Array.isArray(value) && value.length === 0);

/** How many of the bar's own fields narrow the list now (filters set elsewhere, a tree click say, are shown there). */
export function activeFilterCount(filter: ListFilter, names: readonly string[]): number {
  return names.filter((name) => inUse((filter as Record<string, unknown>)[name])).length;
}

/**
 * Inline filter fields with search and reset. Under SPEC §4's mobile width (992 px, antd's `lg`)
 * they fold behind a "Filters (n)" button, closed at first, so the list is what a phone shows;
 * on screens narrower than `md` the fields stack full width.
 */
export function SearchBar<Filter extends ListFilter>({ list, children }: SearchBarProps<Filter>) {
  const t = useListMessages();
  const [form] = Form.useForm<Partial<Filter>>();
  const id = useId().replace(/:/g, '');
  const formName = `search-${id}`;
  const screens = Grid.useBreakpoint();
  const narrow = screens.md === false;
  const folding = screens.lg === false;
  const [open, setOpen] = useState(false);
  const active = activeFilterCount(list.filter, fieldNamesOf(children));

  const fields = (
    <Form<Partial<Filter>>
      form={form}
      // antd derives field ids from the form name: without one, a dialog's name field and the
      // search bar's share an id, and the dialog's label points at the search input.
      name={formName}
      id={formName}
      className="search-bar"
      layout={narrow ? 'vertical' : 'inline'}
      initialValues={list.filter}
      // Filters set outside the form (a tree click, say) stay; the form's own fields replace theirs.
      onFinish={(values) => list.search({ ...list.filter, ...values })}
      // Folded fields stay mounted: their values are kept for the next search.
      style={{ rowGap: 8, marginBottom: 8, ...(folding && !open ? { display: 'none' } : {}) }}
    >
      {children}
      <Form.Item style={narrow ? { marginBottom: 0 } : undefined}>
        <Space wrap>
          <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>
            {t('list.search')}
          </Button>
          <Button
            icon={<ReloadOutlined />}
            onClick={() => {
              form.resetFields();
              list.reset();
            }}
          >
            {t('list.reset')}
          </Button>
        </Space>
      </Form.Item>
    </Form>
  );
  if (!folding) return fields;
  return (
    <>
      <Button
        className="search-bar-toggle"
        icon={<FilterOutlined />}
        type={active > 0 ? 'primary' : 'default'}
        ghost={active > 0}
        aria-expanded={open}
        aria-controls={formName}
        onClick={() => setOpen((shown) => !shown)}
        style={{ marginBottom: 8 }}
      >
        {active > 0 ? `${t('list.filters')} (${active})` : t('list.filters')}
      </Button>
      {fields}
    </>
  );
}
