import { App } from 'antd';
import { createElement, Fragment, type ReactNode } from 'react';
import { useListMessages } from './list-page-messages';

/**
 * Asks before deleting, naming the item (a name) or how many go (a count), with the page's `warning` beneath if it has one; `onConfirm` runs only after "confirm", and the
 * dialog stays open with a spinning button until it settles (a refusal is already notified by the client).
 */
export function useConfirmDelete(): (items: number | string, onConfirm: () => Promise<unknown>, warning?: ReactNode) => void {
  const { modal } = App.useApp();
  const t = useListMessages();
  return (items, onConfirm, warning) => {
    const question = typeof items === 'string' ? t('list.deleteNamed', { name: items }) : t('list.deleteConfirm', { count: items });
    modal.confirm({
      title: t('list.deleteTitle'),
      // A page adds what else goes (a subtree, say) under the question.
      content: warning ? createElement(Fragment, null, createElement('p', null, question), createElement('p', null, warning)) : question,
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
