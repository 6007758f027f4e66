import type { Dict } from '@cloud-classroom/shared/dicts';
import type { PermissionCheck } from '@cloud-classroom/shared/permission';
import { DeleteOutlined } from '@ant-design/icons';
import { App, Button, Card, Col, Empty, Form, Input, Row } from 'antd';
import { useState } from 'react';
import { useListMessages } from '../../components/list-page/list-page-messages';
import { ListPage } from '../../components/list-page/list-page';
import { RowActions } from '../../components/list-page/row-actions';
import { SearchBar } from '../../components/list-page/search-bar';
import { useListPage } from '../../components/list-page/use-list-page';
import { Permission, useCheckPermission } from '../../components/permission';
import { DictDetailPanel } from './dict-detail-panel';
import { DictFormDialog } from './dict-form-dialogs';
import { useDictMessages } from './dicts-messages';
import { dictList } from './dicts-api';
import './dict-page.css';

type DictFilter = { blurry?: string };

const ADD: readonly PermissionCheck[] = ['admin', 'dict:add'];
const EDIT: readonly PermissionCheck[] = ['admin', 'dict:edit'];
const DEL: readonly PermissionCheck[] = ['admin', 'dict:del'];
const LIST: readonly PermissionCheck[] = ['admin', 'dict:list'];

type Dialog = { open: false } | { open: true; dict?: Dict };

/**
 * System → dictionaries: the dictionaries on the left, the clicked one's entries on the right
 * (stacked below antd's lg breakpoint, 992 px, the spec's mobile width).
 */
export default function DictPage() {
  const t = useDictMessages();
  const tl = useListMessages();
  const { modal } = App.useApp();
  const can = useCheckPermission();
  const list = useListPage<Dict, DictFilter>({ query: dictList, defaultSort: ['id,desc'] });
  const [dialog, setDialog] = useState<Dialog>({ open: false });
  const [picked, setSelected] = useState<Dict | undefined>();
  // The row of this page wins over the copy taken at the click, so a rename reaches the entries panel.
  const selected = list.rows.find((dict) => dict.id === picked?.id) ?? picked;

  const confirmDelete = (dicts: readonly Dict[]) => {
    const ids = dicts.map((dict) => dict.id);
    modal.confirm({
      title: tl('list.deleteTitle'),
      content: dicts.length === 1 ? t('dicts.deleteNamed', { name: dicts[0]?.name ?? '' }) : t('dicts.deleteConfirm', { count: ids.length }),
      okText: tl('common.confirm'),
      cancelText: tl('common.cancel'),
      okButtonProps: { danger: true },
      onOk: async () => {
        try {
          await list.remove(ids);
          if (selected !== undefined && ids.includes(selected.id)) setSelected(undefined);
        } catch {
          // The http client has shown the refusal.
        }
      },
    });
  };

  const showActions = can(EDIT) || can(DEL);

  return (
    <Row gutter={[16, 16]} className="dict-page">
      <Col xs={24} lg={10}>
        <Card size="small" title={t('dicts.title')}>
          <ListPage<Dict, DictFilter>
            list={list}
            rowKey="id"
            search={
              <SearchBar list={list}>
                <Form.Item name="blurry">
                  <Input
                    id="dict-search-blurry"
                    allowClear
                    placeholder={t('dicts.blurry')}
                    aria-label={t('dicts.blurry')}
                    style={{ width: 220, maxWidth: '100%' }}
                  />
                </Form.Item>
              </SearchBar>
            }
            add={{ permission: ADD, onClick: () => setDialog({ open: true }) }}
            edit={{ permission: EDIT, onClick: (dict) => setDialog({ open: true, dict }) }}
            exportFile={{ permission: LIST, fileName: t('dicts.exportName') }}
            toolbarExtra={
              <Permission roles={DEL}>
                <Button
                  danger
                  icon={<DeleteOutlined />}
                  disabled={list.selectedRows.length === 0}
                  onClick={() => confirmDelete(list.selectedRows)}
                >
                  {tl('list.delete')}
                </Button>
              </Permission>
            }
            columns={[
              { key: 'name', title: t('dicts.name'), dataIndex: 'name', sortable: true, ellipsis: true },
              { key: 'description', title: t('dicts.description'), dataIndex: 'description', sortable: true, ellipsis: true },
              ...(showActions
                ? [
                    {
                      key: 'actions',
                      title: tl('list.actions'),
                      width: 130,
                      render: (_value: unknown, dict: Dict) => (
                        // The row click selects the dictionary; its buttons should not.
                        <span onClick={(event) => event.stopPropagation()}>
                          <RowActions>
                            <Permission roles={EDIT}>
                              <Button type="link" size="small" onClick={() => setDialog({ open: true, dict })}>
                                {tl('list.edit')}
                              </Button>
                            </Permission>
                            <Permission roles={DEL}>
                              <Button type="link" size="small" danger onClick={() => confirmDelete([dict])}>
                                {tl('list.delete')}
                              </Button>
                            </Permission>
                          </RowActions>
                        </span>
                      ),
                    },
                  ]
                : []),
            ]}
            tableProps={{
              onRow: (dict) => ({ onClick: () => setSelected(dict), className: 'dict-page-row' }),
              rowClassName: (dict) => (dict.id === selected?.id ? 'dict-page-row-current' : ''),
            }}
          />
        </Card>
      </Col>
      <Col xs={24} lg={14}>
        <Card size="small" title={selected === undefined ? t('dicts.details') : t('dicts.detailsOf', { name: selected.name })}>
          {selected === undefined ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('dicts.pickDict')} />
          ) : (
            <DictDetailPanel key={`${selected.id}:${selected.name}`} dict={selected} />
          )}
        </Card>
      </Col>
      {dialog.open && (
        <DictFormDialog
          dict={dialog.dict}
          onClose={() => setDialog({ open: false })}
          onSaved={() => void list.refresh()}
        />
      )}
    </Row>
  );
}
