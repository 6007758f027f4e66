import { ArrowLeftOutlined, BarChartOutlined } from '@ant-design/icons';
import type { MarkingGroup, MarkingItem } from '@cloud-classroom/shared/attempts';
import type { PermissionCheck } from '@cloud-classroom/shared/permission';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Badge, Button, Card, Col, Empty, Flex, Grid, List, Result, Row, Segmented, Select, Skeleton, Space, Switch, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { Permission, useCheckPermission } from '../../components/permission';
import { HttpError } from '../../lib/http-client';
import { EXAMS_LIST_PATH } from '../exams/exam-paths';
import { idOfParam, NoExamChosen } from '../exams/exam-id-param';
import { useExamMessages } from '../exams/exams-messages';
import { AttemptDrawer, type AttemptTab } from './attempt-drawer';
import { CORRECT_EXAM_PATH, reportExamAddress } from './attempt-paths';
import { attemptsKeys, markingQueueQuery, type QueueView } from './attempts-api';
import { candidateName, useAttemptMessages } from './attempts-messages';
import { MarkingItemCard, QuestionKeyView } from './marking-item-card';
import './attempts.css';

const MARK: readonly PermissionCheck[] = ['admin', 'mark:edit'];
const REPORT: readonly PermissionCheck[] = ['admin', 'exam:list'];

type Params = { exam: number | undefined; attempt: number | undefined };

/**
 * The page's `?exam=` and `?attempt=`. The page stays mounted in the tab cache while another tab
 * is shown, whose address is not its own: it keeps what its own address last said.
 */
function useKeptParams(): Params {
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  const here = pathname === CORRECT_EXAM_PATH;
  const exam = idOfParam(params.get('exam'));
  const attempt = idOfParam(params.get('attempt'));
  const [kept, setKept] = useState<Params>({ exam, attempt });
  if (here && (kept.exam !== exam || kept.attempt !== attempt)) setKept({ exam, attempt });
  return here ? { exam, attempt } : kept;
}

/** The group the marker goes to next: the first after `from` with something to mark, round the list. */
function nextPendingGroup(groups: readonly MarkingGroup[], from: number | undefined): MarkingGroup | undefined {
  const at = groups.findIndex((group) => group.id === from);
  const order = [...groups.slice(at + 1), ...groups.slice(0, Math.max(at, 0))];
  return order.find((group) => group.pending > 0 && group.id !== from);
}

type Focus = { answerId: number } | { firstOf: number } | undefined;

function Marking({ examId, attemptParam }: { examId: number; attemptParam: number | undefined }) {
  const t = useAttemptMessages();
  const te = useExamMessages();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const canMark = useCheckPermission()(MARK);
  const screens = Grid.useBreakpoint();
  const [by, setBy] = useState<QueueView['by']>('question');
  const [pending, setPending] = useState(true);
  const [reveal, setReveal] = useState(false);
  const [chosen, setChosen] = useState<number>();
  const [focus, setFocus] = useState<Focus>();
  const [drawer, setDrawer] = useState<{ attemptId: number | undefined; tab: AttemptTab }>({ attemptId: attemptParam, tab: 'answers' });
  // A link naming another attempt (the report's "open attempt") opens its drawer, also on a page kept alive.
  const [seenParam, setSeenParam] = useState(attemptParam);
  if (seenParam !== attemptParam) {
    setSeenParam(attemptParam);
    if (attemptParam !== undefined) setDrawer({ attemptId: attemptParam, tab: 'answers' });
  }

  const queue = useQuery(markingQueueQuery(examId, { by, pending, reveal, group: chosen }));
  const data = queue.data;
  const groups = data?.groups ?? [];
  // With no group chosen yet the marker starts at the first one with something to mark.
  const fallback = groups.find((group) => group.pending > 0) ?? groups[0];
  if (chosen === undefined && data !== undefined && data.by === by && fallback !== undefined) {
    setChosen(fallback.id);
    setFocus({ firstOf: fallback.id });
  }
  // What another view left on screen while this one loads is shown only when it is of the same kind.
  const items = data !== undefined && data.by === by ? data.items : [];
  const shownGroup = data === undefined || data.by !== by ? undefined : groups.find((group) => group.id === chosen);

  let focusedAnswer: number | undefined;
  if (focus !== undefined && 'answerId' in focus) focusedAnswer = focus.answerId;
  else if (focus !== undefined && !queue.isPlaceholderData && focus.firstOf === chosen) focusedAnswer = items[0]?.answerId;

  if (queue.error instanceof HttpError && queue.error.status === 404) {
    return (
      <Result
        status="warning"
        title={te('exams.notFound')}
        extra={
          <Button type="primary" onClick={() => void navigate(EXAMS_LIST_PATH)}>
            {te('exams.back')}
          </Button>
        }
      />
    );
  }

  const changeView = (change: () => void) => {
    change();
    setChosen(undefined);
    setFocus(undefined);
  };
  const choose = (id: number) => {
    setChosen(id);
    setFocus({ firstOf: id });
  };
  const openAttempt = (attemptId: number, tab: AttemptTab = 'answers') => setDrawer({ attemptId, tab });

  const onSaved = (item: MarkingItem) => {
    const at = items.findIndex((shown) => shown.answerId === item.answerId);
    const next = items[at + 1];
    if (next !== undefined) setFocus({ answerId: next.answerId });
    else {
      const group = nextPendingGroup(groups, chosen);
      // The last of a group marked: on to the next group with something left, when not revisiting.
      if (group !== undefined && pending) choose(group.id);
      else setFocus(undefined);
    }
    void queryClient.invalidateQueries({ queryKey: attemptsKeys.queues(examId) });
    void queryClient.invalidateQueries({ queryKey: attemptsKeys.attempt(item.attemptId) });
    void queryClient.invalidateQueries({ queryKey: attemptsKeys.report(examId) });
  };

  const titleOf = (item: MarkingItem, index: number) =>
    // By attempt the question view under the title numbers it and names its type.
    by === 'question' ? `${t('marking.itemN', { n: index + 1 })} · ${candidateName(item.candidate, t)}` : t('marking.questionN', { n: index + 1 });
  const candidateOf = (attemptId: number | undefined) => {
    if (attemptId === undefined) return undefined;
    const label = items.find((item) => item.attemptId === attemptId)?.candidate ?? (by === 'attempt' ? groups.find((group) => group.id === attemptId)?.label : undefined);
    return label === undefined ? undefined : candidateName(label, t);
  };

  const groupLabel = (group: MarkingGroup) => (by === 'question' ? group.label.replace(/<[^>]*>/g, '') : candidateName(group.label, t));
  const nextGroup = nextPendingGroup(groups, chosen);

  const groupPicker = screens.md ? (
    <Card size="small" title={t(`marking.groups.${by}`)} className="marking-groups">
      <List<MarkingGroup>
        size="small"
        dataSource={groups}
        rowKey="id"
        locale={{ emptyText: t('marking.noGroups') }}
        renderItem={(group) => (
          <List.Item
            className={`marking-groups__item${group.id === chosen ? ' marking-groups__item--active' : ''}`}
            onClick={() => choose(group.id)}
            onKeyDown={(event) => {
              if (event.key === 'Enter' || event.key === ' ') {
                event.preventDefault();
                choose(group.id);
              }
            }}
            tabIndex={0}
            role="button"
            aria-pressed={group.id === chosen}
          >
            <Typography.Text ellipsis={{ tooltip: groupLabel(group) }} className="marking-groups__label">
              {groupLabel(group)}
            </Typography.Text>
            <Badge count={group.pending} showZero color={group.pending > 0 ? 'orange' : 'green'} title={t('marking.groupCounter', { pending: group.pending, total: group.total })} />
          </List.Item>
        )}
      />
    </Card>
  ) : (
    <Select
      aria-label={t('marking.group')}
      value={chosen}
      onChange={choose}
      style={{ width: '100%' }}
      options={groups.map((group) => ({ value: group.id, label: `${groupLabel(group)} (${t('marking.groupCounter', { pending: group.pending, total: group.total })})` }))}
      notFoundContent={t('marking.noGroups')}
    />
  );

  return (
    <div className="marking">
      <Card size="small" className="marking__head">
        <Flex justify="space-between" align="flex-start" wrap gap={12}>
          <div className="marking__title">
            <Typography.Title level={4} style={{ margin: 0 }}>
              {t('marking.pageTitle', { title: data?.title ?? '…' })}
            </Typography.Title>
            {data !== undefined && (
              <Space size={[4, 4]} wrap style={{ marginTop: 8 }} aria-live="polite">
                <Tag color={data.pendingTotal > 0 ? 'orange' : 'green'}>{t('marking.pendingTotal', { count: data.pendingTotal })}</Tag>
                <Tag>{t('marking.submitted', { count: data.attemptCount })}</Tag>
                <Tag color="blue">{t('marking.graded', { count: data.gradedCount })}</Tag>
                {data.outsideScope > 0 && <Typography.Text type="secondary">{t('marking.outsideScope', { count: data.outsideScope })}</Typography.Text>}
              </Space>
            )}
          </div>
          <Space wrap>
            <Permission roles={REPORT}>
              <Button icon={<BarChartOutlined />} onClick={() => void navigate(reportExamAddress(examId))}>
                {t('marking.report')}
              </Button>
            </Permission>
            <Button icon={<ArrowLeftOutlined />} onClick={() => void navigate(EXAMS_LIST_PATH)}>
              {te('exams.back')}
            </Button>
          </Space>
        </Flex>
        <Flex wrap gap={12} align="center" className="marking__controls">
          <Segmented<QueueView['by']>
            aria-label={t('marking.by')}
            value={by}
            onChange={(value) => changeView(() => setBy(value))}
            options={[
              { value: 'question', label: t('marking.byQuestion') },
              { value: 'attempt', label: t('marking.byAttempt') },
            ]}
          />
          <Segmented<'pending' | 'all'>
            aria-label={t('marking.show')}
            value={pending ? 'pending' : 'all'}
            onChange={(value) => {
              setPending(value === 'pending');
              setFocus(undefined);
            }}
            options={[
              { value: 'pending', label: t('marking.pendingOnly') },
              { value: 'all', label: t('marking.all') },
            ]}
          />
          <Space size={6}>
            <Switch id="marking-reveal" size="small" checked={reveal} onChange={setReveal} />
            <label htmlFor="marking-reveal">{t('marking.reveal')}</label>
          </Space>
        </Flex>
        <Typography.Paragraph type="secondary" style={{ margin: '8px 0 0' }}>
          {canMark ? t('marking.keyHint') : t('marking.readOnly')}
        </Typography.Paragraph>
      </Card>
      {queue.error !== null && data === undefined && <Alert type="error" showIcon message={t('marking.failed')} description={queue.error.message} />}
      {data === undefined ? (
        queue.isPending && <Skeleton active />
      ) : groups.length === 0 ? (
        <Card>
          <Empty description={t('marking.noGroups')} />
        </Card>
      ) : (
        <Row gutter={[12, 12]}>
          <Col xs={24} md={8} lg={7} xl={6}>
            {groupPicker}
          </Col>
          <Col xs={24} md={16} lg={17} xl={18}>
            <Flex vertical gap={12} aria-busy={queue.isFetching}>
              {shownGroup !== undefined && (
                <Flex justify="space-between" align="center" wrap gap={8}>
                  <Typography.Text strong ellipsis className="marking__group-title">
                    {groupLabel(shownGroup)}
                  </Typography.Text>
                  <Space wrap>
                    <Typography.Text type="secondary">{t('marking.groupCounter', { pending: shownGroup.pending, total: shownGroup.total })}</Typography.Text>
                    {by === 'attempt' && (
                      <Button size="small" onClick={() => openAttempt(shownGroup.id, 'events')}>
                        {t('attempt.events')}
                      </Button>
                    )}
                  </Space>
                </Flex>
              )}
              {by === 'question' && items[0] !== undefined && (
                // Marking by question: the question and its key once, then each candidate's answer.
                <Card size="small" className="marking-question">
                  <QuestionKeyView item={items[0]} index={groups.findIndex((group) => group.id === items[0]?.questionId) + 1} />
                </Card>
              )}
              {items.length === 0 && !queue.isPlaceholderData && chosen !== undefined && (
                <Card>
                  <Result
                    status="success"
                    title={data.pendingTotal === 0 ? t('marking.allDone') : pending ? t('marking.groupDone') : t('marking.groupEmpty')}
                    extra={
                      nextGroup !== undefined && (
                        <Button type="primary" onClick={() => choose(nextGroup.id)}>
                          {t('marking.nextGroup')}
                        </Button>
                      )
                    }
                  />
                </Card>
              )}
              {items.map((item, index) => (
                <MarkingItemCard
                  key={item.answerId}
                  item={item}
                  index={index + 1}
                  title={titleOf(item, index)}
                  canEdit={canMark}
                  focused={item.answerId === focusedAnswer}
                  onSaved={onSaved}
                  onOpenAttempt={openAttempt}
                  compact={by === 'question'}
                />
              ))}
            </Flex>
          </Col>
        </Row>
      )}
      <AttemptDrawer
        attemptId={drawer.attemptId}
        candidate={candidateOf(drawer.attemptId)}
        tab={drawer.tab}
        onTab={(tab) => setDrawer((current) => ({ ...current, tab }))}
        onClose={() => setDrawer((current) => ({ ...current, attemptId: undefined }))}
      />
    </div>
  );
}

/**
 * /edu/correct-exam?exam=<id>[&attempt=<id>]: the marking queue by question across all candidates
 * (anonymous unless names are shown) or by attempt; kept alive in the tab cache.
 */
export default function CorrectExamPage() {
  const { exam, attempt } = useKeptParams();
  if (exam === undefined) return <NoExamChosen />;
  return <Marking key={exam} examId={exam} attemptParam={attempt} />;
}
