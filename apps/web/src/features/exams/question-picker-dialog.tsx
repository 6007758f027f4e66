import { DIFFICULTIES, type Question } from '@cloud-classroom/shared/questions';
import { QUESTION_TYPES, type QuestionType } from '@cloud-classroom/shared/question-scoring';
import { useQuery } from '@tanstack/react-query';
import { Form, Input, Modal, Select, Space, Tag, Typography } from 'antd';
import type { Key } from 'react';
import { useListMessages } from '../../components/list-page/list-page-messages';
import { ListTable } from '../../components/list-page/list-table';
import { SearchBar } from '../../components/list-page/search-bar';
import { paginationOf } from '../../components/list-page/table-bindings';
import { useListPage } from '../../components/list-page/use-list-page';
import { questionPickList, questionTagsQuery } from './exams-api';
import { useExamMessages } from './exams-messages';

type PickerFilter = { type?: QuestionType; difficulty?: number; tag?: string; q?: string; exclude?: string };

export type QuestionPickerDialogProps = {
  /** The questions already in the paper: the list leaves them out. */
  excluded: readonly number[];
  onPick: (questions: Question[]) => void;
  onClose: () => void;
};

/** A question's type, difficulty and knowledge points, as the paper and the picker show them. */
export function QuestionFacts({ question }: { question: Pick<Question, 'type' | 'difficulty' | 'tags' | 'score'> }) {
  const t = useExamMessages();
  return (
    <Space size={4} wrap>
      <Tag color="blue">{t(`exams.type.${question.type}`)}</Tag>
      <Tag>{t('exams.difficultyN', { difficulty: question.difficulty })}</Tag>
      <Tag>{t('exams.points', { score: question.score })}</Tag>
      {question.tags.map((tag) => (
        <Tag key={tag} color="geekblue" bordered={false}>
          {tag}
        </Tag>
      ))}
    </Space>
  );
}

/**
 * Chooses fixed questions from the bank: its list with the bank's filters, less the questions the
 * paper already has (`exclude`), several at a time, across pages.
 */
export function QuestionPickerDialog({ excluded, onPick, onClose }: QuestionPickerDialogProps) {
  const t = useExamMessages();
  const tl = useListMessages();
  const exclude = excluded.length === 0 ? undefined : excluded.join(',');
  const list = useListPage<Question, PickerFilter>({ query: questionPickList, defaultSort: ['id,desc'], initialFilter: { exclude } });
  const tags = useQuery(questionTagsQuery());
  const picked = list.selectedRows;

  return (
    <Modal
      open
      title={t('exams.pickTitle')}
      width={900}
      okText={t('exams.pickAdd', { count: picked.length })}
      okButtonProps={{ disabled: picked.length === 0 }}
      cancelText={tl('common.cancel')}
      onOk={() => {
        onPick(picked);
        onClose();
      }}
      onCancel={onClose}
    >
      <SearchBar list={list}>
        <Form.Item name="q">
          <Input allowClear placeholder={t('exams.pickSearch')} aria-label={t('exams.pickSearch')} style={{ width: 200, maxWidth: '100%' }} />
        </Form.Item>
        <Form.Item name="type">
          <Select
            allowClear
            placeholder={t('exams.anyType')}
            aria-label={t('exams.ruleType')}
            options={QUESTION_TYPES.map((type) => ({ value: type, label: t(`exams.type.${type}`) }))}
            style={{ width: 130, maxWidth: '100%' }}
          />
        </Form.Item>
        <Form.Item name="difficulty">
          <Select
            allowClear
            placeholder={t('exams.anyDifficulty')}
            aria-label={t('exams.ruleDifficulty')}
            options={DIFFICULTIES.map((difficulty) => ({ value: difficulty, label: t('exams.difficultyN', { difficulty }) }))}
            style={{ width: 120, maxWidth: '100%' }}
          />
        </Form.Item>
        <Form.Item name="tag">
          <Select
            allowClear
            showSearch
            placeholder={t('exams.anyTag')}
            aria-label={t('exams.ruleTags')}
            loading={tags.isFetching}
            options={(tags.data ?? []).map((tag) => ({ value: tag.name, label: `${tag.name} (${tag.questionCount})` }))}
            style={{ width: 160, maxWidth: '100%' }}
          />
        </Form.Item>
      </SearchBar>
      <ListTable<Question>
        size="small"
        rowKey="id"
        dataSource={list.rows}
        loading={list.loading}
        // The selection keeps rows of earlier pages: picking goes on across pages.
        rowSelection={{
          preserveSelectedRowKeys: true,
          selectedRowKeys: list.selectedKeys,
          onChange: (keys: Key[], rows: Question[]) => list.setSelection(keys, rows.filter((row) => row !== undefined)),
        }}
        pagination={{ ...paginationOf(list, tl), size: 'small' }}
        columns={[
          {
            key: 'stem',
            title: t('exams.stem'),
            render: (_value, row) => (
              <div className="exam-question-cell">
                <Typography.Paragraph ellipsis={{ rows: 2 }} style={{ marginBottom: 4 }}>
                  {row.stemText || t('exams.imageOnly')}
                </Typography.Paragraph>
                <QuestionFacts question={row} />
              </div>
            ),
          },
          { key: 'id', title: 'ID', dataIndex: 'id', width: 70 },
        ]}
      />
    </Modal>
  );
}
