import { ClearOutlined } from '@ant-design/icons';
import type { LogType } from '@cloud-classroom/shared/logs';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button } from 'antd';
import { Permission } from '../../components/permission';
import { clearLogs, logsKeys } from './logs-api';
import type { LogsTranslate } from './logs-messages';

/** Empties a whole log after a confirmation; only administrators may, as the server says. */
export function LogClearButton({ type, t }: { type: LogType; t: LogsTranslate }) {
  const { message, modal } = App.useApp();
  const queryClient = useQueryClient();
  const confirm = () =>
    modal.confirm({
      title: t('logs.clearTitle'),
      content: t(type === 'INFO' ? 'logs.clearInfo' : 'logs.clearError'),
      okText: t('common.confirm'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true },
      onOk: async () => {
        try {
          await clearLogs(type);
        } catch {
          return; // The http client has shown why.
        }
        message.success(t('logs.cleared'));
        // Both keys: clearing is itself audited, so the operation log changes either way.
        await Promise.all([
          queryClient.invalidateQueries({ queryKey: logsKeys.all }),
          queryClient.invalidateQueries({ queryKey: logsKeys.errors }),
        ]);
      },
    });
  return (
    <Permission roles={['admin']}>
      <Button danger icon={<ClearOutlined />} onClick={confirm}>
        {t('logs.clearAll')}
      </Button>
    </Permission>
  );
}
