import type { AttemptEvent, MarkingAttempt, MarkingItem } from '@cloud-classroom/shared/attempts';
import { useQuery } from '@tanstack/react-query';
import { Alert, Descriptions, Drawer, Empty, Flex, List, Result, Skeleton, Table, Tabs, Tag, Timeline, Typography } from 'antd';
import { HttpError } from '../../lib/http-client';
import { markingAttemptQuery } from './attempts-api';
import { candidateName, useAttemptMessages, type AttemptTranslate } from './attempts-messages';
import { formatScore, keyText, responseText } from './marking-item-view';

export type AttemptTab = 'answers' | 'events' | 'changes';

// Signals a marker may want to look at twice get a warmer colour; none is red, as none is a verdict.
const NOTABLE: ReadonlySet<AttemptEvent['type']> = new Set(['hidden', 'blur', 'fullscreen_exit', 'paste', 'offline', 'ip_change', 'device_change', 'too_many_addresses', 'too_many_devices']);

const stateColour = { in_progress: 'processing', marking: 'orange', graded: 'green' } as const;

function Answers({ attempt, t }: { attempt: MarkingAttempt; t: AttemptTranslate }) {
  return (
    <List<MarkingItem>
      dataSource={attempt.items}
      rowKey="answerId"
      renderItem={(item, index) => {
        const bankKey = (key: string) => t('question.bankKey', { key });
        const response = responseText(item, bankKey);
        return (
          <List.Item className="attempt-answer">
            <Flex vertical gap={4} style={{ width: '100%', minWidth: 0 }}>
              <Flex justify="space-between" wrap gap={8}>
                <Typography.Text strong>
                  {t('marking.questionN', { n: index + 1 })} · {t(`question.type.${item.type}`)}
                </Typography.Text>
                <span>
                  {item.pending ? <Tag color="orange">{t('marking.state.pending')}</Tag> : null}
                  <Typography.Text strong>
                    {formatScore(item.score)} / {formatScore(item.maxScore)}
                  </Typography.Text>
                </span>
              </Flex>
              <div className="rich-text attempt-answer__stem" dangerouslySetInnerHTML={{ __html: item.stem }} />
              <Typography.Text>
                <Typography.Text type="secondary">{t('attempt.response')}: </Typography.Text>
                {response === '' ? <Typography.Text type="secondary">{t('attempt.noResponse')}</Typography.Text> : <span className="attempt-answer__text">{response}</span>}
              </Typography.Text>
              <Typography.Text>
                <Typography.Text type="secondary">{t('attempt.key')}: </Typography.Text>
                <span className="attempt-answer__text">{keyText(item, bankKey)}</span>
              </Typography.Text>
              {item.comment !== null && item.comment !== '' && (
                <Typography.Text>
                  <Typography.Text type="secondary">{t('marking.comment')}: </Typography.Text>
                  {item.comment}
                </Typography.Text>
              )}
            </Flex>
          </List.Item>
        );
      }}
    />
  );
}

function Events({ attempt, t }: { attempt: MarkingAttempt; t: AttemptTranslate }) {
  const numberOf = new Map(attempt.items.map((item, index) => [item.questionId, index + 1]));
  return (
    <Flex vertical gap={12}>
      <Alert type="info" showIcon message={t('attempt.eventsHint')} />
      {attempt.events.length === 0 ? (
        <Empty description={t('attempt.noEvents')} />
      ) : (
        <Timeline
          items={attempt.events.map((event, index) => {
            const number = event.questionId === null ? undefined : numberOf.get(event.questionId);
            return {
              key: `${index}-${event.at}`,
              color: NOTABLE.has(event.type) ? 'orange' : 'blue',
              content: (
                <Flex vertical>
                  <span>
                    <Typography.Text strong>{t(`attempt.event.${event.type}`)}</Typography.Text>
                    {number !== undefined && <Typography.Text type="secondary"> · {t('attempt.eventQuestion', { n: number })}</Typography.Text>}
                  </span>
                  <Typography.Text type="secondary">
                    {event.at}
                    {event.detail !== '' && ` · ${event.detail}`}
                  </Typography.Text>
                </Flex>
              ),
            };
          })}
        />
      )}
    </Flex>
  );
}

function Changes({ attempt, t }: { attempt: MarkingAttempt; t: AttemptTranslate }) {
  const numberOf = new Map(attempt.items.map((item, index) => [item.questionId, index + 1]));
  type Change = MarkingAttempt['changes'][number];
  return (
    <Table<Change>
      size="small"
      rowKey={(change) => `${change.questionId}-${change.at}-${change.kind}-${change.newScore ?? ''}`}
      dataSource={attempt.changes}
      pagination={false}
      scroll={{ x: 640 }}
      locale={{ emptyText: t('attempt.noChanges') }}
      columns={[
        {
          key: 'question',
          title: t('attempt.change.question'),
          width: 80,
          render: (_value, change) => {
            const number = numberOf.get(change.questionId);
            return number === undefined ? `#${change.questionId}` : t('marking.questionN', { n: number });
          },
        },
        {
          key: 'kind',
          title: t('attempt.change.kind'),
          dataIndex: 'kind',
          width: 90,
          render: (kind: Change['kind']) => <Tag color={kind === 'override' ? 'gold' : kind === 'regrade' ? 'purple' : 'blue'}>{t(`attempt.kind.${kind}`)}</Tag>,
        },
        { key: 'scores', title: t('attempt.change.scores'), width: 90, render: (_value, change) => `${formatScore(change.oldScore)} → ${formatScore(change.newScore)}` },
        { key: 'reason', title: t('attempt.change.reason'), dataIndex: 'reason', ellipsis: true },
        { key: 'by', title: t('attempt.change.by'), dataIndex: 'by', width: 100 },
        { key: 'at', title: t('attempt.change.at'), dataIndex: 'at', width: 160 },
      ]}
    />
  );
}

function AttemptBody({ attemptId, tab, onTab }: { attemptId: number; tab: AttemptTab; onTab: (tab: AttemptTab) => void }) {
  const t = useAttemptMessages();
  const query = useQuery(markingAttemptQuery(attemptId));
  if (query.error instanceof HttpError && query.error.status === 404) return <Result status="warning" title={t('attempt.notFound')} />;
  if (query.error !== null && query.data === undefined) return <Alert type="error" showIcon message={t('attempt.loadFailed')} description={query.error.message} />;
  const attempt = query.data;
  if (attempt === undefined) return <Skeleton active />;
  return (
    <Flex vertical gap={12}>
      <Descriptions size="small" column={{ xs: 1, sm: 2 }} bordered>
        <Descriptions.Item label={t('attempt.state')}>
          <Tag color={stateColour[attempt.state]}>{t(`attempt.state.${attempt.state}`)}</Tag>
        </Descriptions.Item>
        <Descriptions.Item label={t('attempt.score')}>
          {formatScore(attempt.score)}
          {attempt.passed !== null && (
            <Tag color={attempt.passed ? 'green' : 'default'} style={{ marginInlineStart: 8 }}>
              {t(attempt.passed ? 'attempt.passed' : 'attempt.failed')}
            </Tag>
          )}
        </Descriptions.Item>
        <Descriptions.Item label={t('attempt.startedAt')}>{attempt.startedAt}</Descriptions.Item>
        <Descriptions.Item label={t('attempt.submittedAt')}>
          {attempt.submittedAt ?? '—'}
          {attempt.submittedBy !== null && <Typography.Text type="secondary"> · {t(`attempt.submittedBy.${attempt.submittedBy}`)}</Typography.Text>}
        </Descriptions.Item>
      </Descriptions>
      <Tabs
        activeKey={tab}
        onChange={(key) => onTab(key as AttemptTab)}
        items={[
          { key: 'answers', label: `${t('attempt.answers')} (${attempt.items.length})`, children: <Answers attempt={attempt} t={t} /> },
          { key: 'events', label: `${t('attempt.events')} (${attempt.events.length})`, children: <Events attempt={attempt} t={t} /> },
          { key: 'changes', label: `${t('attempt.changes')} (${attempt.changes.length})`, children: <Changes attempt={attempt} t={t} /> },
        ]}
      />
    </Flex>
  );
}

/** One attempt for the marker: its answers and scores, the integrity timeline (signals only) and the score history. */
export function AttemptDrawer({
  attemptId,
  candidate,
  tab,
  onTab,
  onClose,
}: {
  attemptId: number | undefined;
  candidate: string | undefined;
  tab: AttemptTab;
  onTab: (tab: AttemptTab) => void;
  onClose: () => void;
}) {
  const t = useAttemptMessages();
  // Opened from an address (the report's link) the page may not know the candidate: the attempt says.
  const loaded = useQuery({ ...markingAttemptQuery(attemptId ?? 0), enabled: attemptId !== undefined && candidate === undefined });
  const name = candidate ?? (loaded.data === undefined ? undefined : candidateName(loaded.data.candidate, t));
  return (
    <Drawer
      open={attemptId !== undefined}
      onClose={onClose}
      title={t('attempt.title', { candidate: name ?? `#${attemptId ?? ''}` })}
      size={720}
      styles={{ wrapper: { maxWidth: '100vw' } }}
      destroyOnHidden
    >
      {attemptId !== undefined && <AttemptBody key={attemptId} attemptId={attemptId} tab={tab} onTab={onTab} />}
    </Drawer>
  );
}
