import { updatePasswordSchema, type UpdatePassword } from '@cloud-classroom/shared/users';
import { Button, Form, Input } from 'antd';
import { useNavigate } from 'react-router';
import { useFormSubmit } from '../../components/form/use-form-submit';
import { zodRule } from '../../components/list-page/zod-rule';
import { signOutAfterPasswordChange } from '../auth/sign-out-after-password-change';
import { postUpdatePassword } from './user-center-api';
import type { UserCenterTranslate } from './user-center-messages';

type PasswordValues = UpdatePassword & { confirmPass: string };

const fields = updatePasswordSchema.shape;

/**
 * Old, new and confirmed password. A changed password ends the person's other sessions on the
 * server; this one is ended too (logout), so every device starts again from the login page.
 */
export function UserCenterPasswordForm({ t }: { t: UserCenterTranslate }) {
  const [form] = Form.useForm<PasswordValues>();
  const navigate = useNavigate();
  const { submit, submitting } = useFormSubmit({
    form,
    mutationFn: ({ oldPass, newPass }: PasswordValues, request) => postUpdatePassword({ oldPass, newPass }, request),
    successMessage: t('userCenter.passwordChanged'),
    onSuccess: () => signOutAfterPasswordChange(navigate),
  });

  return (
    <Form form={form} layout="vertical" onFinish={(values) => void submit(values)} style={{ maxWidth: 480 }}>
      <Form.Item name="oldPass" label={t('userCenter.oldPass')} rules={[zodRule(fields.oldPass)]}>
        <Input.Password autoComplete="current-password" />
      </Form.Item>
      <Form.Item
        name="newPass"
        label={t('userCenter.newPass')}
        dependencies={['oldPass']}
        extra={t('userCenter.passwordHint')}
        rules={[
          zodRule(fields.newPass),
          ({ getFieldValue }) => ({
            validator: async (_rule, value: unknown) => {
              if (value && value === getFieldValue('oldPass')) throw new Error(t('userCenter.passwordSame'));
            },
          }),
        ]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        name="confirmPass"
        label={t('userCenter.confirmPass')}
        dependencies={['newPass']}
        rules={[
          // Only "required" here: its length is the new password's, which is checked above.
          zodRule(fields.oldPass),
          ({ getFieldValue }) => ({
            validator: async (_rule, value: unknown) => {
              if (value && value !== getFieldValue('newPass')) throw new Error(t('userCenter.passwordMismatch'));
            },
          }),
        ]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={submitting}>
        {t('userCenter.save')}
      </Button>
    </Form>
  );
}
