import type { CertRule } from '@cloud-classroom/shared/certificates';
import type { PermissionCheck } from '@cloud-classroom/shared/permission';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Flex, Form, Select, Tag } from 'antd';
import { useState } from 'react';
import { useListMessages } from '../../components/list-page/list-page-messages';
import { ListPage, type ListColumn } from '../../components/list-page/list-page';
import { RowActions } from '../../components/list-page/row-actions';
import { SearchBar } from '../../components/list-page/search-bar';
import { useListPage } from '../../components/list-page/use-list-page';
import { CertRuleFormDialog, type RuleTrigger } from './rule-form-dialog';
import { certificatesKeys, certRuleList, templateOptionsQuery } from './certificates-api';
import { useCertificateMessages } from './certificates-messages';

type RuleFilter = { templateId?: number };

// Issuing automatically is issuing: the server asks cert:issue to make or delete a rule.
const ISSUE: readonly PermissionCheck[] = ['admin', 'cert:issue'];

const TRIGGER_COLORS: Record<RuleTrigger, string> = { exam: 'blue', term: 'green' };
const triggerOf = (rule: CertRule): RuleTrigger => (rule.examId !== null ? 'exam' : 'term');

/**
 * Certificates → issuing rules: a template issued to whoever passes an exam or completes a term,
 * with how many certificates each rule gave; add (which issues to those who qualify already) or
 * delete (what it issued stays).
 */
export default function RuleListPage() {
  const t = useCertificateMessages();
  const tl = useListMessages();
  const queryClient = useQueryClient();
  const list = useListPage<CertRule, RuleFilter>({ query: certRuleList, defaultSort: ['id,desc'] });
  const templates = useQuery(templateOptionsQuery());
  const [adding, setAdding] = useState(false);
  const remove = (rules: readonly CertRule[]) => list.remove(rules.map((rule) => rule.id));

  // The trigger first: rules of one template differ only there, and a phone shows the first column without scrolling.
  const columns: ListColumn<CertRule>[] = [
    {
      key: 'trigger',
      title: t('issueRules.trigger'),
      width: 280,
      render: (_value, rule) => (
        <Flex wrap gap={4} align="center" title={rule.targetName}>
          <Tag color={TRIGGER_COLORS[triggerOf(rule)]} style={{ margin: 0 }}>
            {t(`issueRules.trigger.${triggerOf(rule)}`)}
          </Tag>
          <span>{rule.targetName}</span>
        </Flex>
      ),
    },
    { key: 'templateName', title: t('issueRules.template'), dataIndex: 'templateName', width: 180, ellipsis: true },
    { key: 'issuedCount', title: t('issueRules.issuedCount'), dataIndex: 'issuedCount', align: 'center', width: 90 },
    { key: 'createBy', title: t('issueRules.createBy'), dataIndex: 'createBy', width: 110, render: (by: string | null) => by ?? '—' },
    { key: 'createTime', title: tl('list.createTime'), dataIndex: 'createTime', sortable: true, width: 170 },
    {
      key: 'actions',
      title: tl('list.actions'),
      fixed: 'right',
      width: 90,
      render: (_value, rule) => <RowActions del={{ permission: ISSUE, warning: t('issueRules.deleteWarning'), onConfirm: () => remove([rule]) }} />,
    },
  ];

  return (
    <>
      <ListPage<CertRule, RuleFilter>
        list={list}
        rowKey="id"
        columns={columns}
        search={
          <SearchBar list={list}>
            <Form.Item name="templateId">
              <Select
                id="cert-rule-search-template"
                allowClear
                showSearch={{ optionFilterProp: 'label' }}
                placeholder={t('issueRules.anyTemplate')}
                aria-label={t('issueRules.template')}
                loading={templates.isFetching}
                options={(templates.data ?? []).map((template) => ({ value: template.id, label: template.name }))}
                style={{ width: 200, maxWidth: '100%' }}
              />
            </Form.Item>
          </SearchBar>
        }
        add={{ permission: ISSUE, onClick: () => setAdding(true) }}
        del={{ permission: ISSUE, warning: t('issueRules.deleteWarning'), onConfirm: remove }}
      />
      {adding && (
        <CertRuleFormDialog
          onClose={() => setAdding(false)}
          onSaved={() => {
            void list.refresh();
            // The rule issues to whoever qualifies already: the certificate lists change with it.
            void queryClient.invalidateQueries({ queryKey: certificatesKeys.certificates });
          }}
        />
      )}
    </>
  );
}
