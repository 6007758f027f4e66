import { App } from 'antd';
import { useListMessages } from './list-page-messages';

/**
 * Asks before deleting, naming how many items go; `onConfirm` runs only after "confirm", and the
 * dialog stays open with a spinning button until it settles (a refusal is already notified by the client).
 */
export function useConfirmDelete(): (count: number, onConfirm: () => Promise<unknown>) => void {
  const { modal } = App.useApp();
  const t = useListMessages();
  return (count, onConfirm) => {
    modal.confirm({
      title: t('list.deleteTitle'),
      content: t('list.deleteConfirm', { count }),
      okText: t('common.confirm'),
      cancelText: t('common.cancel'),
      okButtonProps: { danger: true },
      onOk: async () => {
        try {
          await onConfirm();
        } catch {
          // The http client has shown the error; closing the dialog is all that is left.
        }
      },
    });
  };
}
