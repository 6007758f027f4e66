import { Form, Input } from 'antd';
import type { ReactNode } from 'react';
import { DateRangeFilter, type TimeRangeValue } from './date-range-filter';
import { SearchBar } from './search-bar';
import type { ListFilter, ListPageState } from './use-list-page';

/** eladmin's usual list filter: one keyword (`blurry`, matched by the server against several columns) and the creation days. */
export type KeywordFilter = ListFilter & { blurry?: string; createTime?: TimeRangeValue };

export type KeywordSearchBarProps<Filter extends KeywordFilter> = {
  list: Pick<ListPageState<unknown, Filter>, 'filter' | 'search' | 'reset'>;
  /** Says what the keyword is matched against; also the field's accessible name. */
  placeholder: string;
  /** A fixed width for the keyword field; otherwise it takes the form's default. */
  keywordWidth?: number;
  /** More `<Form.Item name="…">` fields after the time range (an enabled filter, say). */
  children?: ReactNode;
};

/**
 * The keyword + creation-time search bar most list pages open with: a `SearchBar`, so it folds
 * behind "Filters (n)" on phones like any other.
 */
export function KeywordSearchBar<Filter extends KeywordFilter>({ list, placeholder, keywordWidth, children }: KeywordSearchBarProps<Filter>) {
  return (
    <SearchBar list={list}>
      <Form.Item name="blurry">
        <Input
          allowClear
          placeholder={placeholder}
          aria-label={placeholder}
          style={keywordWidth === undefined ? undefined : { width: keywordWidth, maxWidth: '100%' }}
        />
      </Form.Item>
      <Form.Item name="createTime">
        <DateRangeFilter />
      </Form.Item>
      {children}
    </SearchBar>
  );
}
