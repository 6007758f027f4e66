import { HistoryOutlined, SaveOutlined, UserOutlined } from '@ant-design/icons';
import { markAnswerSchema, type MarkingItem } from '@cloud-classroom/shared/attempts';
import { Button, Card, Flex, Form, InputNumber, Space, Tag, Typography, type GetRef } from 'antd';
import { useEffect, useRef, type KeyboardEvent } from 'react';
import { LimitedInput, LimitedTextArea } from '../../components/form/limited-input';
import { useFormSubmit } from '../../components/form/use-form-submit';
import { QuestionView } from '../questions/site/question-view';
import { markAnswer } from './attempts-api';
import { useAttemptMessages, type AttemptTranslate } from './attempts-messages';
import { formatScore, inSeenOrder, keyText, questionOfItem, seenLabel } from './marking-item-view';
import '../../components/rich-text/rich-text.css';

type MarkValues = { score: number | null; comment?: string; reason?: string };

export type MarkingItemCardProps = {
  item: MarkingItem;
  /** Its place in the list shown, from 1. */
  index: number;
  /** A title for the card: the candidate (by question) or the question (by attempt). */
  title: string;
  /** Without mark:edit the card shows the mark but no form. */
  canEdit: boolean;
  /** The keyboard flow moved here: the score field takes the focus. */
  focused: boolean;
  onSaved: (item: MarkingItem) => void;
  onOpenAttempt: (attemptId: number, tab?: 'answers' | 'events' | 'changes') => void;
  /** Only the response, without the question: marking by question shows the question once above the answers. */
  compact?: boolean;
};

/** A question with its key, once above the answers of everyone who answered it. */
export function QuestionKeyView({ item, index }: { item: MarkingItem; index: number }) {
  const t = useAttemptMessages();
  const right = item.answer.filter((key): key is string => typeof key === 'string');
  return (
    <Flex vertical gap={8} className="marking-question__body">
      <Flex justify="space-between" wrap gap={8}>
        <Typography.Text strong>
          {t('marking.questionN', { n: index })} · <Tag>{t(`question.type.${item.type}`)}</Tag>
        </Typography.Text>
        <Typography.Text type="secondary">{t('question.points', { count: item.maxScore })}</Typography.Text>
      </Flex>
      <div className="rich-text" dangerouslySetInnerHTML={{ __html: item.stem }} />
      {item.type === 'single' || item.type === 'multiple' ? (
        <ul className="marking-question__options">
          {item.options.map((option) => (
            <li key={option.key} className={right.includes(option.key) ? 'marking-question__option--right' : undefined}>
              {option.key}. {option.text}
              {right.includes(option.key) && ` ✓`}
            </li>
          ))}
        </ul>
      ) : (
        <div>
          <Typography.Text type="secondary">{item.type === 'short' ? t('question.reference') : t('attempt.key')}</Typography.Text>
          <div className="marking-response">{item.type === 'judge' ? right.map((key) => t(`question.judge.${key}` as 'question.judge.T')).join(', ') : keyText(item, (key) => t('question.bankKey', { key }))}</div>
        </div>
      )}
    </Flex>
  );
}

/** The candidate's response alone: the text, the blanks, or the options picked. */
function ResponseView({ item, t }: { item: MarkingItem; t: AttemptTranslate }) {
  const { response } = item;
  if (response === null || (Array.isArray(response) && response.every((text) => text === ''))) {
    return <Typography.Text type="secondary">{t('attempt.noResponse')}</Typography.Text>;
  }
  const picked = typeof response === 'string' ? [response] : response;
  switch (item.type) {
    case 'short':
      return <div className="marking-response">{picked.join('')}</div>;
    case 'blank':
      return (
        <ol className="marking-response marking-response--blanks">
          {picked.map((text, blank) => (
            <li key={blank}>{text === '' ? <Typography.Text type="secondary">{t('attempt.noResponse')}</Typography.Text> : text}</li>
          ))}
        </ol>
      );
    case 'judge':
      return (
        <div className="marking-response">
          {picked.map((key) => (
            <div key={key}>{t(`question.judge.${key}` as 'question.judge.T')}</div>
          ))}
        </div>
      );
    default:
      // As the candidate saw the options, with the bank's key beside a letter that moved.
      return (
        <div className="marking-response">
          {inSeenOrder(item, picked).map((key) => (
            <div key={key}>{`${seenLabel(item, key, (bankKey) => t('question.bankKey', { key: bankKey }))}. ${item.options.find((option) => option.key === key)?.text ?? ''}`}</div>
          ))}
        </div>
      );
  }
}

function StateTag({ item, t }: { item: MarkingItem; t: AttemptTranslate }) {
  if (item.pending) return <Tag color="orange">{t('marking.state.pending')}</Tag>;
  if (item.markedBy !== null) return <Tag color="blue">{t('marking.state.marked')}</Tag>;
  return <Tag>{t('marking.state.auto')}</Tag>;
}

/**
 * The mark of one answer. A first mark needs a score; changing a score already there (the
 * automatic one or an earlier mark) needs a reason too, which the server keeps in the history.
 */
function MarkForm({ item, focused, onSaved }: Pick<MarkingItemCardProps, 'item' | 'focused' | 'onSaved'>) {
  const t = useAttemptMessages();
  const [form] = Form.useForm<MarkValues>();
  const scoreRef = useRef<GetRef<typeof InputNumber>>(null);
  const override = item.score !== null;
  const { submit, submitting } = useFormSubmit<MarkValues>({
    form,
    mutationFn: (values, request) =>
      markAnswer(item.answerId, { score: values.score ?? 0, comment: values.comment ?? '', reason: override ? (values.reason ?? '') : '' }, request),
    successMessage: t('marking.saved'),
    onSuccess: () => onSaved(item),
  });

  useEffect(() => {
    if (focused) scoreRef.current?.focus();
  }, [focused]);

  // Enter saves from the one-line fields; preventing the browser's own submit keeps it to one request.
  const saveOnEnter = (event: KeyboardEvent<HTMLInputElement>) => {
    event.preventDefault();
    if (!submitting) form.submit();
  };
  const saveOnCtrlEnter = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
      event.preventDefault();
      if (!submitting) form.submit();
    }
  };

  const fieldId = (name: string) => `mark-${item.answerId}-${name}`;
  return (
    <Form<MarkValues>
      form={form}
      layout="vertical"
      className="marking-form"
      initialValues={{ score: item.pending ? null : item.score, comment: item.comment ?? '', reason: '' }}
      onFinish={(values) => void submit(values)}
    >
      <Flex wrap gap={12} align="flex-start">
        <Form.Item
          name="score"
          label={t('marking.scoreOf', { max: formatScore(item.maxScore) })}
          htmlFor={fieldId('score')}
          className="marking-form__score"
          rules={[
            {
              validator: (_rule, value: number | null | undefined) => {
                if (value === null || value === undefined) return Promise.reject(new Error(t('marking.scoreRequired')));
                if (value < 0 || value > item.maxScore) return Promise.reject(new Error(t('marking.scoreRange', { max: formatScore(item.maxScore) })));
                return Promise.resolve();
              },
            },
          ]}
        >
          <InputNumber<number> id={fieldId('score')} ref={scoreRef} step={1} style={{ width: 140 }} onPressEnter={saveOnEnter} />
        </Form.Item>
        {override && (
          <Form.Item
            name="reason"
            label={t('marking.reason')}
            htmlFor={fieldId('reason')}
            extra={t('marking.reasonHint')}
            className="marking-form__reason"
            rules={[{ required: true, whitespace: true, message: t('marking.reasonRequired') }]}
          >
            <LimitedInput schema={markAnswerSchema.shape.reason} id={fieldId('reason')} onPressEnter={saveOnEnter} />
          </Form.Item>
        )}
      </Flex>
      <Form.Item name="comment" label={t('marking.comment')} htmlFor={fieldId('comment')}>
        <LimitedTextArea schema={markAnswerSchema.shape.comment} id={fieldId('comment')} autoSize={{ minRows: 1, maxRows: 6 }} onKeyDown={saveOnCtrlEnter} />
      </Form.Item>
      <Button type="primary" htmlType="submit" icon={<SaveOutlined />} loading={submitting}>
        {override ? t('marking.override') : t('marking.save')}
      </Button>
    </Form>
  );
}

/** One answer of the queue: the question with its key, the candidate's response, and its mark. */
export function MarkingItemCard({ item, index, title, canEdit, focused, onSaved, onOpenAttempt, compact = false }: MarkingItemCardProps) {
  const t = useAttemptMessages();
  return (
    <Card
      size="small"
      className={`marking-item${focused ? ' marking-item--focused' : ''}`}
      aria-label={title}
      title={
        <Space size={6} wrap>
          <span>{title}</span>
          <StateTag item={item} t={t} />
        </Space>
      }
      extra={
        <Space size={0} wrap>
          <Button type="link" size="small" icon={<UserOutlined />} onClick={() => onOpenAttempt(item.attemptId)}>
            {t('marking.details')}
          </Button>
          {item.score !== null && (
            <Button type="link" size="small" icon={<HistoryOutlined />} onClick={() => onOpenAttempt(item.attemptId, 'changes')}>
              {t('marking.history')}
            </Button>
          )}
        </Space>
      }
    >
      {compact ? <ResponseView item={item} t={t} /> : <QuestionView question={questionOfItem(item)} index={index} response={item.response} showKey verdict={false} bankKeys />}
      <Flex wrap gap={8} className="marking-item__facts">
        {item.score !== null && <Tag color={item.markedBy === null ? 'default' : 'blue'}>{t('marking.current', { score: formatScore(item.score), max: formatScore(item.maxScore) })}</Tag>}
        {item.autoScore !== null && <Tag>{t('marking.autoScore', { score: formatScore(item.autoScore) })}</Tag>}
        {item.markedBy !== null && (
          <Typography.Text type="secondary">{t('marking.markedBy', { by: item.markedBy, at: item.markedAt ?? '' })}</Typography.Text>
        )}
        {!canEdit && item.comment !== null && item.comment !== '' && <Typography.Text>{item.comment}</Typography.Text>}
      </Flex>
      {canEdit && (
        // A new mark from the server starts the form again from it (a first mark becomes an override).
        <MarkForm key={`${item.score ?? 'none'}-${item.markedAt ?? ''}`} item={item} focused={focused} onSaved={onSaved} />
      )}
    </Card>
  );
}
