import { GENDERS, userCenterSchema, type User, type UserCenter } from '@cloud-classroom/shared/users';
import { Button, Form, Input, Radio, Space } from 'antd';
import { LimitedInput } from '../../components/form/limited-input';
import { useFormSubmit } from '../../components/form/use-form-submit';
import { zodRule } from '../../components/list-page/zod-rule';
import { useUserStore } from '../auth/user-store';
import { putUserCenter } from './user-center-api';
import type { UserCenterTranslate } from './user-center-messages';

type ProfileValues = { nickName: string; gender: UserCenter['gender'] | undefined; phone: string; email: string };

const valuesOf = (user: User): ProfileValues => ({
  nickName: user.nickName,
  gender: user.gender === '男' || user.gender === '女' ? user.gender : undefined,
  phone: user.phone ?? '',
  email: user.email ?? '',
});

const fields = userCenterSchema.shape;

/** The fields of `userCenterSchema`, checked by the same schema the server applies. */
export function UserCenterProfileForm({ user, t }: { user: User; t: UserCenterTranslate }) {
  const [form] = Form.useForm<ProfileValues>();
  const { submit, submitting } = useFormSubmit({
    form,
    // The schema trims and turns blanks into null, exactly as the server would store them.
    mutationFn: (values: ProfileValues, request) => putUserCenter(userCenterSchema.parse(values), request),
    successMessage: t('userCenter.profileSaved'),
    onSuccess: () => useUserStore.getState().getInfo(),
  });

  return (
    <Form
      form={form}
      layout="vertical"
      initialValues={valuesOf(user)}
      onFinish={(values) => void submit(values)}
      style={{ maxWidth: 480 }}
    >
      <Form.Item name="nickName" label={t('userCenter.nickName')} rules={[zodRule(fields.nickName)]}>
        <LimitedInput schema={fields.nickName} autoComplete="nickname" />
      </Form.Item>
      <Form.Item name="gender" label={t('userCenter.gender')}>
        <Radio.Group
          options={GENDERS.map((gender) => ({
            value: gender,
            label: t(gender === '男' ? 'userCenter.male' : 'userCenter.female'),
          }))}
        />
      </Form.Item>
      <Form.Item name="phone" label={t('userCenter.phone')} rules={[zodRule(fields.phone)]}>
        <Input inputMode="tel" autoComplete="tel" />
      </Form.Item>
      <Form.Item name="email" label={t('userCenter.email')} rules={[zodRule(fields.email)]}>
        <Input type="email" autoComplete="email" />
      </Form.Item>
      <Space>
        <Button type="primary" htmlType="submit" loading={submitting}>
          {t('userCenter.save')}
        </Button>
        <Button onClick={() => form.resetFields()}>{t('userCenter.reset')}</Button>
      </Space>
    </Form>
  );
}
