import type { User } from '@cloud-classroom/shared/users';
import { App, Switch } from 'antd';
import { useState } from 'react';
import { useListMessages } from '../../components/list-page/list-page-messages';
import { useUserMessages } from './user-messages';
import { toUserUpdate, updateUser } from './users-api';

/** Enables or disables a user after a confirmation, by saving the whole user as the update takes it. */
export function UserEnabledSwitch({ user, disabled, onChanged }: { user: User; disabled: boolean; onChanged: () => void }) {
  const t = useUserMessages();
  const tl = useListMessages();
  const { modal, message } = App.useApp();
  const [saving, setSaving] = useState(false);

  const toggle = (enabled: boolean) => {
    modal.confirm({
      title: t(enabled ? 'users.enableTitle' : 'users.disableTitle'),
      content: t(enabled ? 'users.enableConfirm' : 'users.disableConfirm', { name: user.username }),
      okText: tl('common.confirm'),
      cancelText: tl('common.cancel'),
      onOk: async () => {
        setSaving(true);
        try {
          await updateUser(toUserUpdate(user, { enabled }));
          message.success(t(enabled ? 'users.enabledDone' : 'users.disabledDone'));
          onChanged();
        } catch {
          // The http client has shown the error; the switch keeps the saved state.
        } finally {
          setSaving(false);
        }
      },
    });
  };

  return (
    <Switch
      checked={user.enabled}
      loading={saving}
      // A user without a department cannot be saved (the contract requires one): edit them instead.
      disabled={disabled || user.dept === null}
      aria-label={`${user.username} ${user.enabled ? tl('list.enabled') : tl('list.disabled')}`}
      checkedChildren={tl('list.enabled')}
      unCheckedChildren={tl('list.disabled')}
      onChange={toggle}
    />
  );
}
