import { CopyOutlined } from '@ant-design/icons';
import { App, Button, Modal, Space, Typography } from 'antd';
import { useUserMessages } from './user-messages';

export type ShownPassword = { username: string; password: string };

/**
 * Shows passwords the server answered once (a new user's first one, generated resets): the
 * server keeps only hashes, so closing this is the last chance to copy them.
 */
export function PasswordResultDialog({
  passwords,
  createdUser,
  onClose,
}: {
  passwords: readonly ShownPassword[] | undefined;
  /** Set for a new user's first password; the wording differs from a reset. */
  createdUser?: string;
  onClose: () => void;
}) {
  const t = useUserMessages();
  const { message } = App.useApp();
  const all = (passwords ?? []).map(({ username, password }) => `${username}: ${password}`).join('\n');

  return (
    <Modal
      open={passwords !== undefined}
      title={createdUser === undefined ? t('users.passwordsTitle') : t('users.createdTitle')}
      onCancel={onClose}
      mask={{ closable: false }}
      // The passwords leave the page with the dialog.
      destroyOnHidden
      footer={[
        passwords !== undefined && passwords.length > 1 && (
          <Button
            key="copy"
            icon={<CopyOutlined />}
            onClick={() =>
              void navigator.clipboard.writeText(all).then(
                () => message.success(t('users.copied')),
                () => {},
              )
            }
          >
            {t('users.copyAll')}
          </Button>
        ),
        <Button key="close" type="primary" onClick={onClose}>
          {t('users.close')}
        </Button>,
      ]}
    >
      <Typography.Paragraph>
        {createdUser === undefined ? t('users.passwordsText') : t('users.createdText', { name: createdUser })}
      </Typography.Paragraph>
      <Space orientation="vertical" size={4} style={{ width: '100%' }}>
        {(passwords ?? []).map(({ username, password }) => (
          <Space key={username} wrap size={8} data-testid="shown-password">
            <Typography.Text strong>{username}</Typography.Text>
            <Typography.Text code copyable={{ text: password }}>
              {password}
            </Typography.Text>
          </Space>
        ))}
      </Space>
    </Modal>
  );
}
