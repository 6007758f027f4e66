import { dictLabel } from '@cloud-classroom/shared/display';
import type { Dict, DictDetail } from '@cloud-classroom/shared/dicts';
import type { PermissionCheck } from '@cloud-classroom/shared/permission';
import { App, Form, Input } from 'antd';
import { useState } from 'react';
import { useListMessages } from '../../components/list-page/list-page-messages';
import { ListPage } from '../../components/list-page/list-page';
import { RowActions } from '../../components/list-page/row-actions';
import { SearchBar } from '../../components/list-page/search-bar';
import { useListPage } from '../../components/list-page/use-list-page';
import { useCheckPermission } from '../../components/permission';
import { useLanguage } from '../../lib/use-menu-title';
import { DictDetailFormDialog } from './dict-form-dialogs';
import { useDictMessages } from './dicts-messages';
import { deleteDictDetail, dictDetailList } from './dicts-api';

type DetailFilter = { dictName: string; label?: string };

const ADD: readonly PermissionCheck[] = ['admin', 'dict:add'];
const EDIT: readonly PermissionCheck[] = ['admin', 'dict:edit'];
const DEL: readonly PermissionCheck[] = ['admin', 'dict:del'];

type Dialog = { open: false } | { open: true; detail?: DictDetail };

/** The entries of one dictionary; mount it keyed by the dictionary so a new one starts afresh. */
export function DictDetailPanel({ dict }: { dict: Dict }) {
  const t = useDictMessages();
  const tl = useListMessages();
  const { message } = App.useApp();
  const can = useCheckPermission();
  const language = useLanguage();
  const list = useListPage<DictDetail, DetailFilter>({
    query: dictDetailList,
    defaultSort: ['dictSort,asc'],
    initialFilter: { dictName: dict.name },
  });
  const [dialog, setDialog] = useState<Dialog>({ open: false });

  const remove = async (detail: DictDetail) => {
    await deleteDictDetail(detail.id);
    message.success(tl('list.deleted'));
    await list.refresh();
  };

  return (
    <>
      <ListPage<DictDetail, DetailFilter>
        list={list}
        rowKey="id"
        search={
          <SearchBar list={list}>
            <Form.Item name="label">
              {/* Own id: the entry dialog has a `label` field too, and antd derives ids from names. */}
              <Input
                id="dict-detail-search-label"
                allowClear
                placeholder={t('dicts.labelSearch')}
                aria-label={t('dicts.labelSearch')}
                style={{ width: 200, maxWidth: '100%' }}
              />
            </Form.Item>
          </SearchBar>
        }
        add={{ permission: ADD, onClick: () => setDialog({ open: true }) }}
        columns={[
          // In the reader's language; the dialog shows both.
          {
            key: 'label',
            title: t('dicts.label'),
            dataIndex: 'label',
            sortable: true,
            render: (_label: string, detail: DictDetail) => dictLabel(detail, language),
          },
          { key: 'value', title: t('dicts.value'), dataIndex: 'value', sortable: true },
          { key: 'dictSort', title: t('dicts.dictSort'), dataIndex: 'dictSort', sortable: true, width: 90, align: 'center' },
          ...(can(EDIT) || can(DEL)
            ? [
                {
                  key: 'actions',
                  title: tl('list.actions'),
                  width: 130,
                  render: (_value: unknown, detail: DictDetail) => (
                    <RowActions
                      edit={{ permission: EDIT, onClick: () => setDialog({ open: true, detail }) }}
                      del={{ permission: DEL, name: detail.label, onConfirm: () => remove(detail) }}
                    />
                  ),
                },
              ]
            : []),
        ]}
      />
      {dialog.open && (
        <DictDetailFormDialog dict={dict} detail={dialog.detail} onClose={() => setDialog({ open: false })} onSaved={() => void list.refresh()} />
      )}
    </>
  );
}
