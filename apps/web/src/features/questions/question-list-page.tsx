import { UploadOutlined } from '@ant-design/icons';
import type { PermissionCheck } from '@cloud-classroom/shared/permission';
import { QUESTION_TYPES, type QuestionType } from '@cloud-classroom/shared/question-scoring';
import { DIFFICULTIES, type Question } from '@cloud-classroom/shared/questions';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Flex, Form, Input, Select, Switch, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useListMessages } from '../../components/list-page/list-page-messages';
import { ListPage, type ListColumn } from '../../components/list-page/list-page';
import { RowActions } from '../../components/list-page/row-actions';
import { SearchBar } from '../../components/list-page/search-bar';
import { useListPage } from '../../components/list-page/use-list-page';
import { Permission } from '../../components/permission';
import { useDeleteRefusal } from '../courses/use-delete-refusal';
import { questionList, questionsKeys, questionTagsQuery } from './questions-api';
import { useQuestionMessages } from './questions-messages';

export const QUESTIONS_PAGE_PATH = '/exam/question';
export const ADD_QUESTION_PATH = '/edu/add-question';
export const EDIT_QUESTION_PATH = '/edu/edit-question';
export const IMPORT_QUESTION_PATH = '/edu/import-question';

type QuestionFilter = {
  type?: QuestionType;
  difficulty?: number;
  tag?: string;
  q?: string;
  duplicate?: true;
};

const ADD: readonly PermissionCheck[] = ['admin', 'question:add'];
const EDIT: readonly PermissionCheck[] = ['admin', 'question:edit'];
const DEL: readonly PermissionCheck[] = ['admin', 'question:del'];
const LIST: readonly PermissionCheck[] = ['admin', 'question:list'];

export const TYPE_COLOURS: Record<QuestionType, string> = { single: 'blue', multiple: 'geekblue', judge: 'cyan', blank: 'purple', short: 'magenta' };

/** The "duplicates only" filter: off leaves the filter out rather than asking for the unique ones. */
function DuplicateSwitch({ value, onChange, id }: { value?: true; onChange?: (value: true | undefined) => void; id?: string }) {
  const t = useQuestionMessages();
  return <Switch id={id} aria-label={t('questions.duplicateOnly')} checked={value === true} onChange={(checked) => onChange?.(checked ? true : undefined)} />;
}

/** The knowledge points as a filter, searched on the server as the person types. */
function TagFilter({ value, onChange, id }: { value?: string; onChange?: (value: string | undefined) => void; id?: string }) {
  const t = useQuestionMessages();
  const [search, setSearch] = useState('');
  const tags = useQuery(questionTagsQuery(search.trim()));
  const options = (tags.data ?? []).map((tag) => ({ value: tag.name, label: `${tag.name} (${tag.questionCount})` }));
  if (value !== undefined && !options.some((option) => option.value === value)) options.unshift({ value, label: value });
  return (
    <Select
      id={id}
      allowClear
      showSearch={{ filterOption: false, onSearch: setSearch }}
      placeholder={t('questions.anyTag')}
      aria-label={t('questions.tag')}
      loading={tags.isFetching}
      options={options}
      value={value}
      onChange={(next: string | undefined) => onChange?.(next)}
      style={{ width: 180, maxWidth: '100%' }}
    />
  );
}

/**
 * Exams → question bank: the questions of every type, filtered by type, difficulty, knowledge
 * point, stem text and duplicates; added and edited on their own page, imported from a workbook.
 */
export default function QuestionListPage() {
  const t = useQuestionMessages();
  const tl = useListMessages();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const refusal = useDeleteRefusal();
  const list = useListPage<Question, QuestionFilter>({ query: questionList, defaultSort: ['id,desc'] });

  const openAdd = () => void navigate(ADD_QUESTION_PATH);
  const openEdit = (question: Question) => void navigate(`${EDIT_QUESTION_PATH}?id=${question.id}`);

  const remove = async (ids: number[]) => {
    try {
      await list.remove(ids, { silent: true });
    } catch (error) {
      refusal(error, t('questions.deleteRefused'));
      return;
    }
    // The knowledge points' counts change with the questions.
    void queryClient.invalidateQueries({ queryKey: questionsKeys.tags });
  };

  const columns: ListColumn<Question>[] = [
    { key: 'id', title: t('questions.id'), dataIndex: 'id', sortable: true, width: 80 },
    {
      key: 'type',
      title: t('questions.type'),
      dataIndex: 'type',
      sortable: true,
      width: 130,
      render: (type: QuestionType) => <Tag color={TYPE_COLOURS[type]}>{t(`question.type.${type}`)}</Tag>,
    },
    {
      key: 'stemText',
      title: t('questions.stem'),
      dataIndex: 'stemText',
      width: 260,
      render: (text: string, row) => (
        // A set width: the table sizes its columns to their content, and a stem's whole text would widen it past the page.
        <Flex gap={4} align="center" style={{ width: 240 }}>
          {row.duplicate && (
            <Tag color="warning" title={t('questions.duplicateHint')} style={{ flex: 'none' }}>
              {t('questions.duplicate')}
            </Tag>
          )}
          <Typography.Text ellipsis={{ tooltip: text }} style={{ minWidth: 0 }}>
            {text === '' ? t('questions.pictureOnly') : text}
          </Typography.Text>
        </Flex>
      ),
    },
    {
      key: 'difficulty',
      title: t('questions.difficulty'),
      dataIndex: 'difficulty',
      sortable: true,
      width: 90,
      render: (difficulty: number) => t(`questions.difficulty.${difficulty}` as 'questions.difficulty.1'),
    },
    {
      key: 'tags',
      title: t('questions.tags'),
      dataIndex: 'tags',
      width: 150,
      render: (tags: string[]) => (
        <Flex gap={4} wrap>
          {tags.map((tag) => (
            <Tag key={tag} style={{ marginInlineEnd: 0 }}>
              {tag}
            </Tag>
          ))}
        </Flex>
      ),
    },
    { key: 'score', title: t('questions.score'), dataIndex: 'score', sortable: true, width: 75 },
    { key: 'examCount', title: t('questions.examCount'), dataIndex: 'examCount', width: 90 },
    { key: 'updateTime', title: t('questions.updateTime'), dataIndex: 'updateTime', sortable: true, width: 160 },
    {
      key: 'actions',
      title: tl('list.actions'),
      fixed: 'right',
      width: 120,
      render: (_value, row) => (
        <RowActions
          edit={{ permission: EDIT, onClick: () => openEdit(row) }}
          del={{ permission: DEL, name: `#${row.id}`, warning: t('questions.deleteWarning'), onConfirm: () => remove([row.id]) }}
        />
      ),
    },
  ];

  return (
    <ListPage<Question, QuestionFilter>
      list={list}
      rowKey="id"
      columns={columns}
      search={
        <SearchBar list={list}>
          <Form.Item name="q">
            <Input id="question-search-q" allowClear placeholder={t('questions.search')} aria-label={t('questions.search')} style={{ width: 200, maxWidth: '100%' }} />
          </Form.Item>
          <Form.Item name="type">
            <Select
              id="question-search-type"
              allowClear
              placeholder={t('questions.anyType')}
              aria-label={t('questions.type')}
              options={QUESTION_TYPES.map((type) => ({ value: type, label: t(`question.type.${type}`) }))}
              style={{ width: 140, maxWidth: '100%' }}
            />
          </Form.Item>
          <Form.Item name="difficulty">
            <Select
              id="question-search-difficulty"
              allowClear
              placeholder={t('questions.anyDifficulty')}
              aria-label={t('questions.difficulty')}
              options={DIFFICULTIES.map((difficulty) => ({ value: difficulty, label: t(`questions.difficulty.${difficulty}`) }))}
              style={{ width: 130, maxWidth: '100%' }}
            />
          </Form.Item>
          <Form.Item name="tag">
            <TagFilter id="question-search-tag" />
          </Form.Item>
          <Form.Item name="duplicate" label={t('questions.duplicateOnly')}>
            <DuplicateSwitch id="question-search-duplicate" />
          </Form.Item>
        </SearchBar>
      }
      add={{ permission: ADD, onClick: openAdd }}
      edit={{ permission: EDIT, onClick: openEdit }}
      del={{
        permission: DEL,
        rowName: (row) => `#${row.id}`,
        warning: t('questions.deleteWarning'),
        onConfirm: (rows) => remove(rows.map((row) => row.id)),
      }}
      exportFile={{ permission: LIST, fileName: t('questions.exportName') }}
      toolbarExtra={
        <Permission roles={ADD}>
          <Button icon={<UploadOutlined />} onClick={() => void navigate(IMPORT_QUESTION_PATH)}>
            {t('questions.import')}
          </Button>
        </Permission>
      }
    />
  );
}
