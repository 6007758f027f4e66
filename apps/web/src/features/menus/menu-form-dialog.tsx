import {
  isExternalMenuPath,
  keepFieldsOfType,
  MENU_BUTTON,
  MENU_DIRECTORY,
  MENU_PAGE,
  menuFieldsSchema,
  type Menu,
  type MenuCreateBody,
} from '@cloud-classroom/shared/menus';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Col, Form, InputNumber, Radio, Row, type FormRule } from 'antd';
import { LimitedInput } from '../../components/form/limited-input';
import { FormDialog } from '../../components/list-page/form-dialog';
import { useMenuTitle } from '../../lib/use-menu-title';
import { useListMessages } from '../../components/list-page/list-page-messages';
import { zodRule } from '../../components/list-page/zod-rule';
import { IconPicker } from './icon-picker';
import { LazyParentSelect } from '../../components/tree/lazy-parent-select';
import { useMenuMessages } from './menus-messages';
import { createMenu, menuChildrenQuery, menuParentsQuery, updateMenu } from './menus-api';

type MenuType = Menu['type'];

export type MenuFormValues = {
  type: MenuType;
  title: string;
  titleEn?: string | null;
  icon?: string | null;
  iFrame?: boolean;
  cache?: boolean;
  hidden?: boolean;
  path?: string;
  component?: string;
  componentName?: string;
  permission?: string;
  menuSort: number;
  pid: number;
};

const DIRECTORY = MENU_DIRECTORY;
const PAGE = MENU_PAGE;
const BUTTON = MENU_BUTTON;

const shape = menuFieldsSchema.shape;

const blankToNull = (text: string | null | undefined) => (text === undefined || text === null || text.trim() === '' ? null : text.trim());

/**
 * The body for the menu type chosen: the fields eladmin's form hides for that type are sent
 * empty (`keepFieldsOfType`, which the server applies too), so a page turned into a button does
 * not keep a stale route.
 */
export function menuBodyOf(values: MenuFormValues): MenuCreateBody {
  return keepFieldsOfType({
    type: values.type,
    title: values.title.trim(),
    titleEn: blankToNull(values.titleEn),
    pid: values.pid,
    menuSort: values.menuSort,
    icon: blankToNull(values.icon),
    iFrame: values.iFrame ?? false,
    cache: values.cache ?? false,
    hidden: values.hidden ?? false,
    path: blankToNull(values.path),
    component: blankToNull(values.component),
    componentName: blankToNull(values.componentName),
    permission: blankToNull(values.permission),
  });
}

function initialValuesOf(menu: Menu | undefined): MenuFormValues {
  if (menu === undefined) {
    return { type: DIRECTORY, title: '', titleEn: '', icon: null, iFrame: false, cache: false, hidden: false, menuSort: 999, pid: 0 };
  }
  return {
    type: menu.type,
    title: menu.title,
    titleEn: menu.titleEn ?? '',
    icon: menu.icon,
    iFrame: menu.iFrame,
    cache: menu.cache,
    hidden: menu.hidden,
    path: menu.path ?? '',
    component: menu.component ?? '',
    componentName: menu.componentName ?? '',
    permission: menu.permission ?? '',
    menuSort: menu.menuSort,
    pid: menu.pid ?? 0,
  };
}

export type MenuFormDialogProps = {
  open: boolean;
  /** The menu to edit; absent adds one. */
  menu?: Menu;
  onClose: () => void;
  onSaved: () => void;
};

export function MenuFormDialog({ open, menu, onClose, onSaved }: MenuFormDialogProps) {
  const t = useMenuMessages();
  const tl = useListMessages();
  const titleOf = useMenuTitle();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<MenuFormValues>();
  const type = Form.useWatch('type', form) ?? menu?.type ?? DIRECTORY;
  const iFrame = Form.useWatch('iFrame', form) ?? false;
  const editing = menu !== undefined;

  // Editing asks for the tree around the menu without its own subtree; adding starts from the top level.
  const parents = useQuery({ ...menuParentsQuery(menu?.id), enabled: open });

  const yesNo = [
    { label: tl('list.yes'), value: true },
    { label: tl('list.no'), value: false },
  ];
  // "Visible" is the opposite of the stored `hidden`.
  const visibleOptions = [
    { label: tl('list.yes'), value: false },
    { label: tl('list.no'), value: true },
  ];

  const pathRules: FormRule[] = [
    { required: true, whitespace: true, message: t('menus.pathRequired') },
    zodRule(shape.path),
    {
      // Read at validation time: the watched value can trail a click by a tick.
      validator: async (_rule, value: string | undefined) => {
        if (form.getFieldValue('iFrame') === true && value && !isExternalMenuPath(value.trim())) {
          throw new Error(t('menus.externalPath'));
        }
      },
    },
  ];

  return (
    <FormDialog<MenuFormValues>
      open={open}
      title={editing ? t('menus.editTitle') : t('menus.addTitle')}
      form={form}
      initialValues={initialValuesOf(menu)}
      width={640}
      labelWidth={96}
      onSubmit={(values, request) => {
        const body = menuBodyOf(values);
        return editing ? updateMenu({ ...body, id: menu.id }, request) : createMenu(body, request);
      }}
      onSuccess={onSaved}
      onClose={onClose}
    >
      <Form.Item name="type" label={t('menus.type')} rules={[zodRule(shape.type)]}>
        <Radio.Group
          optionType="button"
          options={[DIRECTORY, PAGE, BUTTON].map((value) => ({ value, label: t(`menus.type.${value as MenuType}`) }))}
        />
      </Form.Item>
      {type !== BUTTON && (
        <Form.Item name="icon" label={t('menus.icon')} rules={[zodRule(shape.icon)]}>
          <IconPicker />
        </Form.Item>
      )}
      <Row gutter={16}>
        {type !== BUTTON && (
          <Col xs={24} sm={12}>
            <Form.Item name="iFrame" label={t('menus.iFrame')}>
              <Radio.Group optionType="button" options={yesNo} />
            </Form.Item>
          </Col>
        )}
        {type === PAGE && (
          <Col xs={24} sm={12}>
            <Form.Item name="cache" label={t('menus.cache')}>
              <Radio.Group optionType="button" options={yesNo} />
            </Form.Item>
          </Col>
        )}
        {type !== BUTTON && (
          <Col xs={24} sm={12}>
            <Form.Item name="hidden" label={t('menus.visible')}>
              <Radio.Group optionType="button" options={visibleOptions} />
            </Form.Item>
          </Col>
        )}
        <Col xs={24} sm={12}>
          <Form.Item
            name="title"
            label={type === BUTTON ? t('menus.buttonTitle') : t('menus.title')}
            rules={[zodRule(shape.title)]}
          >
            <LimitedInput schema={shape.title} />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item
            name="titleEn"
            label={type === BUTTON ? t('menus.buttonTitleEn') : t('menus.titleEn')}
            rules={[zodRule(shape.titleEn)]}
          >
            <LimitedInput schema={shape.titleEn} placeholder={t('menus.titleEnPlaceholder')} />
          </Form.Item>
        </Col>
        {type !== DIRECTORY && (
          <Col xs={24} sm={12}>
            <Form.Item name="permission" label={t('menus.permission')} rules={[zodRule(shape.permission)]}>
              <LimitedInput schema={shape.permission} placeholder={t('menus.permissionPlaceholder')} />
            </Form.Item>
          </Col>
        )}
        {type !== BUTTON && (
          <Col xs={24} sm={12}>
            <Form.Item name="path" label={t('menus.path')} rules={pathRules}>
              <LimitedInput schema={shape.path} placeholder={iFrame ? t('menus.externalPathPlaceholder') : t('menus.pathPlaceholder')} />
            </Form.Item>
          </Col>
        )}
        <Col xs={24} sm={12}>
          <Form.Item
            name="menuSort"
            label={t('menus.menuSort')}
            rules={[{ required: true, message: tl('list.required') }, zodRule(shape.menuSort)]}
          >
            <InputNumber min={0} max={999_999} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        {type === PAGE && !iFrame && (
          <>
            <Col xs={24} sm={12}>
              <Form.Item name="componentName" label={t('menus.componentName')} rules={[zodRule(shape.componentName)]}>
                <LimitedInput schema={shape.componentName} placeholder={t('menus.componentNamePlaceholder')} />
              </Form.Item>
            </Col>
            <Col xs={24} sm={12}>
              <Form.Item
                name="component"
                label={t('menus.component')}
                rules={[{ required: true, whitespace: true, message: t('menus.componentRequired') }, zodRule(shape.component)]}
              >
                <LimitedInput schema={shape.component} placeholder={t('menus.componentPlaceholder')} />
              </Form.Item>
            </Col>
          </>
        )}
      </Row>
      <Form.Item name="pid" label={t('menus.pid')} rules={[{ required: true, message: tl('list.required') }]}>
        <LazyParentSelect<Menu>
          roots={parents.data ?? []}
          loading={parents.isPending}
          loadChildren={(pid) => queryClient.fetchQuery(menuChildrenQuery(pid))}
          exclude={menu?.id}
          isDisabled={(row) => row.type === BUTTON}
          labelOf={titleOf}
          topLabel={t('menus.topLevel')}
        />
      </Form.Item>
    </FormDialog>
  );
}
