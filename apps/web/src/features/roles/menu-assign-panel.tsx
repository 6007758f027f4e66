import type { PermissionCheck } from '@cloud-classroom/shared/permission';
import { SaveOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Card, Empty, Spin, Tag, Tree, type TreeDataNode } from 'antd';
import { ancestorIds, descendantIds, linksOf } from '@cloud-classroom/shared/tree';
import { useMemo, useState } from 'react';
import { Permission, useCheckPermission } from '../../components/permission';
import { useMenuTitle } from '../../lib/use-menu-title';
import { useRoleMessages } from './roles-messages';
import { menuTreeQuery, roleQuery, rolesKeys, updateRoleMenus, type MenuNode } from './roles-api';

const EDIT: readonly PermissionCheck[] = ['admin', 'roles:edit'];

/**
 * A role's menus and buttons. Ticking an entry ticks everything below it and the directories
 * above it (a page is reachable only through its directory); unticking clears the entry and
 * everything below. The ticks are saved together with "save".
 */
export function MenuAssignPanel({ roleId, editable }: { roleId: number | undefined; editable: boolean }) {
  const t = useRoleMessages();
  const titleOf = useMenuTitle();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const tree = useQuery({ ...menuTreeQuery(), enabled: roleId !== undefined });
  const role = useQuery({ ...roleQuery(roleId ?? 0), enabled: roleId !== undefined });
  // Edits belong to the role they were made on; picking another role starts from its saved menus.
  const [draft, setDraft] = useState<{ roleId: number; keys: number[] } | undefined>(undefined);
  const [saving, setSaving] = useState(false);
  // Without the edit permission the ticks only show what the role has.
  const mayEdit = useCheckPermission()(EDIT);

  const links = useMemo(() => linksOf(tree.data ?? [], (node) => node.key), [tree.data]);
  const saved = useMemo(() => (role.data?.menus ?? []).map((menu) => menu.id), [role.data]);
  const checked = draft !== undefined && draft.roleId === roleId ? draft.keys : saved;

  const treeData = useMemo(() => {
    const toData = (nodes: readonly MenuNode[]): TreeDataNode[] =>
      nodes.map((node) => ({
        key: node.key,
        title:
          node.type === 2 ? (
            <>
              {titleOf(node)} <Tag variant="filled">{t('roles.button')}</Tag>
            </>
          ) : (
            titleOf(node)
          ),
        children: node.children && toData(node.children),
      }));
    return toData(tree.data ?? []);
  }, [t, titleOf, tree.data]);

  if (roleId === undefined) {
    return (
      <Card size="small" title={t('roles.menuTitle')}>
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('roles.menuPick')} />
      </Card>
    );
  }

  const toggle = (id: number, on: boolean) => {
    const subtree = descendantIds(links, [id]);
    const next = on
      ? [...new Set([...checked, ...subtree, ...ancestorIds(links, id)])]
      : checked.filter((key) => !subtree.includes(key));
    setDraft({ roleId, keys: next });
  };

  const save = async () => {
    setSaving(true);
    try {
      await updateRoleMenus({ id: roleId, menus: checked.map((id) => ({ id })) });
      message.success(t('roles.menusSaved'));
      await queryClient.invalidateQueries({ queryKey: rolesKeys.all });
      setDraft(undefined);
    } catch {
      // The http client has shown the error; the ticks stay for another try.
    } finally {
      setSaving(false);
    }
  };

  return (
    <Card
      size="small"
      title={role.data ? t('roles.menuFor', { name: role.data.name }) : t('roles.menuTitle')}
      extra={
        <Permission roles={EDIT}>
          <Button
            type="primary"
            size="small"
            icon={<SaveOutlined />}
            loading={saving}
            disabled={!editable || role.data === undefined}
            onClick={() => void save()}
          >
            {t('roles.save')}
          </Button>
        </Permission>
      }
    >
      <Spin spinning={tree.isFetching || role.isFetching}>
        <div style={{ maxHeight: '65vh', overflow: 'auto' }}>
          {/* Mounted once the tree is there, so that it opens fully expanded. */}
          {tree.data && (
            <Tree
              checkable
              checkStrictly
              selectable={false}
              defaultExpandAll
              disabled={!editable || !mayEdit}
              treeData={treeData}
              checkedKeys={checked}
              onCheck={(_, info) => toggle(Number(info.node.key), info.checked)}
            />
          )}
        </div>
      </Spin>
    </Card>
  );
}
