import { useQuery } from '@tanstack/react-query';
import { Select, Typography } from 'antd';
import type { PermissionCheck } from '@cloud-classroom/shared/permission';
import { useState } from 'react';
import { useCheckPermission } from '../../components/permission';
import { peopleSearchQuery } from './applicants-api';
import { useApplicantMessages } from './applicants-messages';

/** Who may search people (`GET api/users`); for anyone else the server answers 403, which would end on the 401 page. */
export const PEOPLE_READERS: readonly PermissionCheck[] = ['admin', 'user:list', 'applicant:add'];

export type UserPickerProps = {
  value?: number[];
  onChange?: (ids: number[]) => void;
  /** Names of people already chosen (a rule being edited), as the search has not brought them yet. */
  knownNames?: ReadonlyMap<number, string>;
  placeholder?: string;
  id?: string;
  'aria-label'?: string;
};

const labelOf = (user: { nickName: string; username: string }) => `${user.nickName} (${user.username})`;

/**
 * Several people, found by username or nick name as one types (`GET api/users?blurry=`, which
 * answers only people in the caller's data scope and how many more matched outside it). The chosen ones keep their names while the
 * search moves on to others.
 */
export function UserPicker({ value, onChange, knownNames, placeholder, id, 'aria-label': ariaLabel }: UserPickerProps) {
  const t = useApplicantMessages();
  const mayList = useCheckPermission()(PEOPLE_READERS);
  const [search, setSearch] = useState('');
  const [chosen, setChosen] = useState<ReadonlyMap<number, string>>(() => new Map(knownNames));
  const people = useQuery({ ...peopleSearchQuery(search.trim()), enabled: mayList });
  const found = (people.data?.content ?? []).map((user) => ({ value: user.id, label: labelOf(user) }));
  const outsideScope = people.data?.outsideScope ?? 0;
  const foundIds = new Set(found.map((option) => option.value));
  const kept = (value ?? []).filter((userId) => !foundIds.has(userId)).map((userId) => ({ value: userId, label: chosen.get(userId) ?? `#${userId}` }));

  return (
    <Select<number[]>
      id={id}
      aria-label={ariaLabel}
      mode="multiple"
      showSearch={{ filterOption: false, onSearch: setSearch }}
      loading={people.isFetching}
      disabled={!mayList}
      placeholder={mayList ? placeholder : t('applicants.cannotListPeople')}
      options={[...found, ...kept]}
      // Someone searched for but outside the caller's departments is said to exist, not passed over as "no data".
      popupRender={(menu) =>
        outsideScope === 0 ? (
          menu
        ) : (
          <>
            {menu}
            <Typography.Text type="secondary" role="status" style={{ display: 'block', padding: '4px 12px' }}>
              {t('applicants.peopleOutsideScope', { count: outsideScope })}
            </Typography.Text>
          </>
        )
      }
      value={value}
      onChange={(ids, options) => {
        const next = new Map(chosen);
        for (const option of Array.isArray(options) ? options : [options]) {
          if (option?.value !== undefined && typeof option.label === 'string') next.set(option.value as number, option.label);
        }
        setChosen(next);
        setSearch('');
        onChange?.(ids);
      }}
      style={{ width: '100%' }}
    />
  );
}
