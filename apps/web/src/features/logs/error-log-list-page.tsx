import type { Log } from '@cloud-classroom/shared/logs';
import { useQuery } from '@tanstack/react-query';
import { Button, Flex, Modal, Skeleton, Typography } from 'antd';
import { useState } from 'react';
import { KeywordSearchBar, type KeywordFilter } from '../../components/list-page/keyword-search-bar';
import { ListPage } from '../../components/list-page/list-page';
import { useListPage } from '../../components/list-page/use-list-page';
import { Permission, useCheckPermission } from '../../components/permission';
import { useLanguage } from '../../lib/use-menu-title';
import { LogClearButton } from './log-clear-button';
import { logColumns, LogRowDetails } from './log-columns';
import { errorDetailQuery, errorLogList } from './logs-api';
import { useLogsMessages, type LogsTranslate } from './logs-messages';

function ErrorDetailDialog({ id, onClose, t }: { id: number | undefined; onClose: () => void; t: LogsTranslate }) {
  const { data, isPending } = useQuery({ ...errorDetailQuery(id ?? 0), enabled: id !== undefined });
  return (
    <Modal
      open={id !== undefined}
      title={t('logs.detailsTitle', { id: id ?? '' })}
      onCancel={onClose}
      footer={null}
      width={{ xs: '95%', md: 900 }}
      destroyOnHidden
    >
      {isPending ? (
        <Skeleton active paragraph={{ rows: 8 }} />
      ) : data?.exception ? (
        <Flex vertical gap={8}>
          <Typography.Text copyable={{ text: data.exception, tooltips: [t('logs.copy'), t('logs.copy')] }}>{t('logs.copy')}</Typography.Text>
          <pre
            aria-label={t('logs.details')}
            style={{ margin: 0, maxHeight: '60vh', overflow: 'auto', fontSize: 12, whiteSpace: 'pre', background: 'rgba(0, 0, 0, 0.04)', padding: 12 }}
          >
            {data.exception}
          </pre>
        </Flex>
      ) : (
        <Typography.Text type="secondary">{t('logs.noStack')}</Typography.Text>
      )}
    </Modal>
  );
}

/** 异常日志: failed requests; administrators open an entry's stack trace and may clear the log. */
export default function ErrorLogListPage() {
  const t = useLogsMessages();
  const language = useLanguage();
  const can = useCheckPermission();
  const list = useListPage<Log, KeywordFilter>({ query: errorLogList, defaultSort: ['createTime,desc'] });
  const [detailOf, setDetailOf] = useState<number>();

  const columns = logColumns(t, language);
  // The server opens stack traces to administrators only: nobody else is offered the button.
  if (can(['admin'])) {
    columns.push({
      key: 'actions',
      title: t('logs.actions'),
      fixed: 'right',
      render: (_, log: Log) => (
        <Permission roles={['admin']}>
          <Button type="link" size="small" onClick={() => setDetailOf(log.id)}>
            {t('logs.details')}
          </Button>
        </Permission>
      ),
    });
  }

  return (
    <>
      <ListPage<Log, KeywordFilter>
        list={list}
        rowKey="id"
        columns={columns}
        search={<KeywordSearchBar list={list} placeholder={t('logs.blurry')} />}
        exportFile={{ permission: ['admin', 'log:list'], fileName: t('logs.exportError') }}
        toolbarExtra={<LogClearButton type="ERROR" t={t} />}
        tableProps={{ expandable: { expandedRowRender: (log) => <LogRowDetails log={log} t={t} /> } }}
      />
      <ErrorDetailDialog id={detailOf} onClose={() => setDetailOf(undefined)} t={t} />
    </>
  );
}
