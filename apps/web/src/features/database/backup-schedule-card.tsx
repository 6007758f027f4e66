import { backupScheduleSchema, type BackupSchedule, type DatabaseStatus } from '@cloud-classroom/shared/database';
import type { PermissionCheck } from '@cloud-classroom/shared/permission';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Descriptions, Form, Input, InputNumber, Space, Switch, Typography } from 'antd';
import { useEffect } from 'react';
import { useFormSubmit } from '../../components/form/use-form-submit';
import { zodRule } from '../../components/list-page/zod-rule';
import { useCheckPermission } from '../../components/permission';
import { databaseKeys, saveSchedule } from './database-api';
import type { DatabaseTranslate } from './database-messages';

const EDIT: readonly PermissionCheck[] = ['admin', 'database:edit'];

/** What the server backs up with (or why it cannot), the schedule's form and how to restore. */
export function BackupScheduleCard({ status, t }: { status: DatabaseStatus; t: DatabaseTranslate }) {
  const [form] = Form.useForm<BackupSchedule>();
  const queryClient = useQueryClient();
  const mayEdit = useCheckPermission()(EDIT);
  useEffect(() => form.setFieldsValue(status.schedule), [form, status.schedule]);
  const { submit, submitting } = useFormSubmit<BackupSchedule>({
    form,
    mutationFn: (values, request) => saveSchedule(values, request),
    successMessage: t('database.scheduleSaved'),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: databaseKeys.status }),
  });
  const shape = backupScheduleSchema.shape;
  return (
    <Space direction="vertical" size={12} style={{ width: '100%', marginBottom: 12 }}>
      {status.problem !== null && <Alert type="warning" showIcon title={t('database.cannotBackUp')} description={status.problem} />}
      <Card size="small" className="backup-status">
        <Descriptions size="small" column={{ xs: 1, md: 2 }} items={[
          { key: 'dialect', label: t('database.status'), children: status.dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL' },
          { key: 'tool', label: t('database.tool'), children: <Typography.Text code>{status.tool}</Typography.Text> },
        ]} />
        <Typography.Title level={5} style={{ marginTop: 8 }}>
          {t('database.schedule')}
        </Typography.Title>
        <Form form={form} layout="inline" initialValues={status.schedule} onFinish={(values) => void submit(values)} disabled={!mayEdit} className="backup-schedule-form">
          <Form.Item name="enabled" label={t('database.scheduleEnabled')} valuePropName="checked">
            <Switch />
          </Form.Item>
          <Form.Item name="time" label={t('database.scheduleTime')} rules={[zodRule(shape.time)]}>
            {/* limit-exempt: a time of day, HH:mm, as its placeholder shows. */}
            <Input placeholder="HH:mm" maxLength={5} style={{ width: 80 }} />
          </Form.Item>
          <Form.Item name="keep" label={t('database.scheduleKeep')} rules={[zodRule(shape.keep)]}>
            <InputNumber min={1} max={365} precision={0} suffix={t('database.scheduleKeepUnit')} style={{ width: 120 }} />
          </Form.Item>
          {mayEdit && (
            <Form.Item>
              <Button type="primary" htmlType="submit" loading={submitting}>
                {t('database.scheduleSave')}
              </Button>
            </Form.Item>
          )}
        </Form>
        <Typography.Paragraph type="secondary" style={{ margin: '8px 0 0' }}>
          {status.nextRun === null ? t('database.scheduleOff') : t('database.nextRun', { time: status.nextRun, zone: status.timeZone })}
        </Typography.Paragraph>
      </Card>
      <Alert
        type="info"
        showIcon
        title={t('database.restoreTitle')}
        description={
          <>
            {t('database.restoreHelp')}
            <br />
            <Typography.Text code copyable>
              npm run restore -- {'<backup>'}
            </Typography.Text>
          </>
        }
      />
    </Space>
  );
}
