import { passwordSchema, type User } from '@cloud-classroom/shared/users';
import { App, Form, Input, Modal, Radio, Typography } from 'antd';
import { useFormSubmit } from '../../components/form/use-form-submit';
import { useListMessages } from '../../components/list-page/list-page-messages';
import { zodRule } from '../../components/list-page/zod-rule';
import type { ShownPassword } from './password-result-dialog';
import { useUserMessages } from './user-messages';
import { resetPasswords } from './users-api';

type ResetValues = { mode: 'generate' | 'set'; password?: string };

/**
 * Confirms a password reset for `users`, either generating a password per user (answered once,
 * handed to `onGenerated`) or setting the one typed here.
 */
export function ResetPasswordDialog({
  users,
  onClose,
  onGenerated,
}: {
  users: readonly Pick<User, 'id' | 'username'>[] | undefined;
  onClose: () => void;
  onGenerated: (passwords: ShownPassword[]) => void;
}) {
  const t = useUserMessages();
  const tl = useListMessages();
  const { message } = App.useApp();
  const [form] = Form.useForm<ResetValues>();
  const mode = Form.useWatch('mode', form);
  const { submit: send, submitting } = useFormSubmit({
    form,
    mutationFn: (values: ResetValues, request) =>
      resetPasswords(
        { ids: (users ?? []).map((user) => user.id), password: values.mode === 'set' ? values.password : undefined },
        request,
      ),
    onSuccess: (result) => {
      onClose();
      if (result === undefined) message.success(t('users.passwordSet'));
      else onGenerated(result.passwords.map(({ username, password }) => ({ username, password })));
    },
  });

  const submit = async () => {
    if (users === undefined) return;
    let values: ResetValues;
    try {
      values = await form.validateFields();
    } catch {
      return;
    }
    // A refusal keeps the dialog for another try.
    await send(values);
  };

  return (
    <Modal
      open={users !== undefined}
      title={t('users.resetTitle')}
      okText={tl('common.confirm')}
      cancelText={tl('common.cancel')}
      okButtonProps={{ danger: true }}
      confirmLoading={submitting}
      onOk={() => void submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Typography.Paragraph>
        {users?.length === 1
          ? t('users.resetConfirmOne', { name: users[0]?.username ?? '' })
          : t('users.resetConfirm', { count: users?.length ?? 0, names: (users ?? []).map((user) => user.username).join(', ') })}
      </Typography.Paragraph>
      <Form<ResetValues> form={form} layout="vertical" initialValues={{ mode: 'generate' }} preserve={false}>
        <Form.Item name="mode">
          <Radio.Group
            options={[
              { value: 'generate', label: t('users.resetGenerate') },
              { value: 'set', label: t('users.resetSet') },
            ]}
          />
        </Form.Item>
        {mode === 'set' && (
          <Form.Item name="password" label={t('users.newPassword')} rules={[zodRule(passwordSchema)]}>
            <Input.Password autoComplete="new-password" />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}
