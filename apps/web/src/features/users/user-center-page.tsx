import { UserOutlined } from '@ant-design/icons';
import { Avatar, Card, Col, Descriptions, Flex, Row, Skeleton, Tabs, Typography } from 'antd';
import { useSearchParams } from 'react-router';
import { avatarUrl, useUserStore } from '../auth/user-store';
import { UserCenterAvatarForm } from './user-center-avatar-form';
import { UserCenterLogs } from './user-center-logs';
import { useUserCenterMessages } from './user-center-messages';
import { UserCenterPasswordForm } from './user-center-password-form';
import { UserCenterProfileForm } from './user-center-profile-form';

const TABS = ['profile', 'password', 'avatar', 'logs'] as const;
type Tab = (typeof TABS)[number];

const isTab = (value: string | null): value is Tab => (TABS as readonly (string | null)[]).includes(value);

/**
 * /user/center: the signed-in person's own account. The open tab is in the address (`?tab=`),
 * so the dashboard can link straight to "my operations" and a refresh keeps the place.
 */
export default function UserCenterPage() {
  const t = useUserCenterMessages();
  const user = useUserStore((state) => state.user);
  const [searchParams, setSearchParams] = useSearchParams();
  const requested = searchParams.get('tab');
  const tab: Tab = isTab(requested) ? requested : 'profile';
  const openTab = (next: string) => setSearchParams({ tab: next }, { replace: true });

  if (user === undefined) {
    return (
      <Card>
        <Skeleton avatar active paragraph={{ rows: 6 }} />
      </Card>
    );
  }

  const none = <Typography.Text type="secondary">{t('userCenter.none')}</Typography.Text>;

  return (
    <Row gutter={[16, 16]} className="user-center-page">
      <Col xs={24} lg={8} xl={7}>
        <Card title={t('userCenter.info')}>
          <Flex vertical align="center" gap={8} style={{ marginBottom: 16 }}>
            <button
              type="button"
              onClick={() => openTab('avatar')}
              title={t('userCenter.changeAvatar')}
              aria-label={t('userCenter.changeAvatar')}
              style={{ border: 0, padding: 0, background: 'none', cursor: 'pointer', borderRadius: '50%' }}
            >
              <Avatar size={100} src={avatarUrl(user)} icon={<UserOutlined />} alt={user.nickName} />
            </button>
            <Typography.Title level={4} style={{ margin: 0 }}>
              {user.nickName}
            </Typography.Title>
          </Flex>
          <Descriptions
            column={1}
            size="small"
            items={[
              { key: 'username', label: t('userCenter.username'), children: user.username },
              { key: 'nickName', label: t('userCenter.nickName'), children: user.nickName },
              { key: 'dept', label: t('userCenter.dept'), children: user.dept?.name ?? none },
              { key: 'phone', label: t('userCenter.phone'), children: user.phone ?? none },
              { key: 'email', label: t('userCenter.email'), children: user.email ?? none },
              { key: 'createTime', label: t('userCenter.createTime'), children: user.createTime },
              { key: 'pwdResetTime', label: t('userCenter.pwdResetTime'), children: user.pwdResetTime ?? none },
            ]}
          />
        </Card>
      </Col>
      <Col xs={24} lg={16} xl={17}>
        <Card>
          <Tabs
            activeKey={tab}
            onChange={openTab}
            destroyOnHidden
            items={[
              { key: 'profile', label: t('userCenter.tabProfile'), children: <UserCenterProfileForm user={user} t={t} /> },
              { key: 'password', label: t('userCenter.tabPassword'), children: <UserCenterPasswordForm t={t} /> },
              { key: 'avatar', label: t('userCenter.tabAvatar'), children: <UserCenterAvatarForm user={user} t={t} /> },
              { key: 'logs', label: t('userCenter.tabLogs'), children: <UserCenterLogs t={t} /> },
            ]}
          />
        </Card>
      </Col>
    </Row>
  );
}
