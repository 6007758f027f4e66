import type { CensusRow } from '@cloud-classroom/shared/census';
import type { PermissionCheck } from '@cloud-classroom/shared/permission';
import { useQuery } from '@tanstack/react-query';
import { Form, Input, Select, TreeSelect, Typography } from 'antd';
import { Link } from 'react-router';
import { ListPage, type ListColumn } from '../../components/list-page/list-page';
import { SearchBar } from '../../components/list-page/search-bar';
import { useListPage, type ListFilter } from '../../components/list-page/use-list-page';
import { useCheckPermission } from '../../components/permission';
import { courseOptionsQuery } from '../exams/exams-api';
import { useDeptTree } from '../users/use-dept-tree';
import { censusList, censusUserPath } from './census-api';
import { CensusDaysPicker, type CensusDays } from './census-days-picker';
import { useCensusMessages } from './census-messages';
import { studyTime } from './study-time';

type CensusFilter = ListFilter & { blurry?: string; deptId?: number; courseId?: number; from?: string; to?: string };
/** The search bar's fields: the two days are one picker there. */
type CensusSearch = ListFilter & Omit<CensusFilter, 'from' | 'to'> & { days?: CensusDays };

const LIST: readonly PermissionCheck[] = ['admin', 'census:list'];
// What the server lets read the pickers' lists (`GET api/dept`, `GET api/courses`); anyone else
// would get a 403, so their picker stays closed instead.
const DEPT_READERS: readonly PermissionCheck[] = ['admin', 'dept:list', 'user:list', 'applicant:add'];
const COURSE_READERS: readonly PermissionCheck[] = ['admin', 'course:list'];

function DeptSelect({ id, value, onChange, placeholder, cannotList }: { id?: string; value?: number; onChange?: (id: number | undefined) => void; placeholder: string; cannotList: string }) {
  const mayList = useCheckPermission()(DEPT_READERS);
  const depts = useDeptTree({ openTo: value === undefined ? undefined : [value], enabled: mayList });
  return (
    <TreeSelect
      id={id}
      allowClear
      value={value}
      onChange={onChange}
      treeData={depts.treeData}
      loadData={(node) => depts.loadChildren(Number(node.value))}
      placeholder={mayList ? placeholder : cannotList}
      aria-label={placeholder}
      disabled={!mayList}
      loading={depts.loading}
      showSearch={{ treeNodeFilterProp: 'title' }}
      popupMatchSelectWidth={false}
      style={{ width: 180, maxWidth: '100%' }}
    />
  );
}

/** 学员统计 (issue 15): everyone within the caller's scope with their study figures; a name opens the person's record. */
export default function CensusListPage() {
  const t = useCensusMessages();
  const may = useCheckPermission();
  const list = useListPage<CensusRow, CensusFilter>({ query: censusList, defaultSort: ['id,asc'] });
  const courses = useQuery({ ...courseOptionsQuery(), enabled: may(COURSE_READERS) });

  // The bar edits one day range; the list sends it as the server's `from` and `to`.
  const { from, to, ...rest } = list.filter;
  const searchState = {
    filter: { ...rest, days: from !== undefined && to !== undefined ? ([from, to] as CensusDays) : undefined } as CensusSearch,
    search: ({ days, ...fields }: CensusSearch) => list.search({ ...fields, from: days?.[0], to: days?.[1] }),
    reset: list.reset,
  };

  const columns: ListColumn<CensusRow>[] = [
    {
      key: 'username',
      title: t('census.username'),
      dataIndex: 'username',
      sortable: true,
      fixed: 'left',
      width: 140,
      render: (username: string, row) => <Link to={censusUserPath(row.userId)}>{username}</Link>,
    },
    {
      key: 'nickName',
      title: t('census.nickName'),
      dataIndex: 'nickName',
      sortable: true,
      width: 120,
      render: (name: string, row) => <Link to={censusUserPath(row.userId)}>{name}</Link>,
    },
    { key: 'dept', title: t('census.dept'), dataIndex: 'deptName', width: 140, ellipsis: true, render: (name: string | null) => name ?? '' },
    { key: 'studySeconds', title: t('census.studyTime'), dataIndex: 'studySeconds', sortable: true, width: 130, render: (seconds: number) => studyTime(seconds, t) },
    { key: 'coursesEnrolled', title: t('census.coursesEnrolled'), dataIndex: 'coursesEnrolled', sortable: true, width: 110 },
    { key: 'coursesCompleted', title: t('census.coursesCompleted'), dataIndex: 'coursesCompleted', sortable: true, width: 110 },
    { key: 'examsAttempted', title: t('census.examsAttempted'), dataIndex: 'examsAttempted', sortable: true, width: 110 },
    { key: 'examsPassed', title: t('census.examsPassed'), dataIndex: 'examsPassed', sortable: true, width: 110 },
    { key: 'certificates', title: t('census.certificates'), dataIndex: 'certificates', sortable: true, width: 100 },
    {
      key: 'lastLoginAt',
      title: t('census.lastLogin'),
      dataIndex: 'lastLoginAt',
      sortable: true,
      width: 170,
      render: (at: string | null) => at ?? <Typography.Text type="secondary">{t('census.never')}</Typography.Text>,
    },
  ];

  return (
    <ListPage<CensusRow, CensusFilter>
      list={list}
      rowKey="userId"
      columns={columns}
      search={
        <SearchBar<CensusSearch> list={searchState}>
          <Form.Item name="blurry">
            <Input id="census-search-blurry" allowClear placeholder={t('census.search')} aria-label={t('census.search')} style={{ width: 230, maxWidth: '100%' }} />
          </Form.Item>
          <Form.Item name="deptId">
            <DeptSelect id="census-search-dept" placeholder={t('census.anyDept')} cannotList={t('census.cannotListDepts')} />
          </Form.Item>
          <Form.Item name="courseId">
            <Select
              id="census-search-course"
              allowClear
              showSearch={{ optionFilterProp: 'label' }}
              placeholder={t('census.anyCourse')}
              aria-label={t('census.course')}
              disabled={!may(COURSE_READERS)}
              loading={courses.isFetching}
              options={(courses.data ?? []).map((course) => ({ value: course.id, label: course.title }))}
              style={{ width: 200, maxWidth: '100%' }}
            />
          </Form.Item>
          <Form.Item name="days">
            <CensusDaysPicker id="census-search-days" label={t('census.days')} />
          </Form.Item>
        </SearchBar>
      }
      exportFile={{ permission: LIST, fileName: t('census.exportName') }}
    />
  );
}
