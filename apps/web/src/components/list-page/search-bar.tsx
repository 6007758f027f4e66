import { ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import { Button, Form, Grid, Space } from 'antd';
import { useId, type ReactNode } from 'react';
import { useListMessages } from './list-page-messages';
import type { ListFilter, ListPageState } from './use-list-page';

export type SearchBarProps<Filter extends ListFilter> = {
  list: Pick<ListPageState<unknown, Filter>, 'filter' | 'search' | 'reset'>;
  /** `<Form.Item name="<filter key>">` fields; their values are merged into the list's filter on search. */
  children: ReactNode;
};

/** Inline filter fields with search and reset; on screens narrower than `md` the fields stack full width. */
export function SearchBar<Filter extends ListFilter>({ list, children }: SearchBarProps<Filter>) {
  const t = useListMessages();
  const [form] = Form.useForm<Partial<Filter>>();
  const formName = `search-${useId().replace(/:/g, '')}`;
  const screens = Grid.useBreakpoint();
  const narrow = screens.md === false;

  return (
    <Form<Partial<Filter>>
      form={form}
      // antd derives field ids from the form name: without one, a dialog's name field and the
      // search bar's share an id, and the dialog's label points at the search input.
      name={formName}
      className="search-bar"
      layout={narrow ? 'vertical' : 'inline'}
      initialValues={list.filter}
      // Filters set outside the form (a tree click, say) stay; the form's own fields replace theirs.
      onFinish={(values) => list.search({ ...list.filter, ...values })}
      style={{ rowGap: 8, marginBottom: 8 }}
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
}
