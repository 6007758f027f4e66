import type { ImportResult, ImportRow } from '@cloud-classroom/shared/applicants';
import { Flex, Table, Typography } from 'antd';
import { useImportMessages } from './spreadsheet-import-messages';

type SheetPlan = { sheet: string; rows: ImportRow[]; examples: number[] };

/** The answer's rows and example rows by sheet, the sheets in the order the answer first names them. */
function bySheet(result: ImportResult): SheetPlan[] {
  const sheets = new Map<string, SheetPlan>();
  const of = (sheet: string) => sheets.get(sheet) ?? sheets.set(sheet, { sheet, rows: [], examples: [] }).get(sheet)!;
  for (const example of result.examples) of(example.sheet).examples.push(example.row);
  for (const row of result.rows) of(row.sheet).rows.push(row);
  return [...sheets.values()];
}

/**
 * What a checked file will create, sheet by sheet (row, type where the rows have one, and a few
 * words of each), and the template's example rows it leaves out, so that a person sees before
 * importing that what they filled in, and nothing else, is what goes in.
 */
export function ImportPlan({ result, typeText }: { result: ImportResult; typeText?: (type: string) => string }) {
  const t = useImportMessages();
  return (
    <Flex vertical gap={12}>
      {bySheet(result).map(({ sheet, rows, examples }) => {
        const title = t('import.sheetRows', { sheet, count: rows.length });
        return (
          <section key={sheet} aria-label={title}>
            <Typography.Text strong>{title}</Typography.Text>
            {examples.length > 0 && (
              <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
                {t('import.examplesSkipped', { count: examples.length, rows: examples.join(', ') })}
              </Typography.Paragraph>
            )}
            {rows.length > 0 && (
              <Table
                size="small"
                rowKey="row"
                dataSource={rows}
                pagination={rows.length > 20 ? { pageSize: 20, size: 'small', showSizeChanger: false } : false}
                tableLayout="fixed"
                columns={[
                  { key: 'row', title: t('import.errorRow'), dataIndex: 'row', width: 56 },
                  ...(typeText === undefined ? [] : [{ key: 'type', title: t('import.rowType'), width: 96, render: (_: unknown, row: ImportRow) => (row.type === null ? '' : typeText(row.type)) }]),
                  { key: 'text', title: t('import.rowText'), dataIndex: 'text', onCell: () => ({ style: { overflowWrap: 'anywhere' } }) },
                ]}
              />
            )}
          </section>
        );
      })}
    </Flex>
  );
}
