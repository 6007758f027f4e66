import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { neutraliseCell, toXlsx } from './xlsx-export.js';

describe('xlsx export', () => {
  it.each([
    ['=HYPERLINK("http://evil","x")', `'=HYPERLINK("http://evil","x")`],
    ['+1+1', `'+1+1`],
    ['-2', `'-2`],
    ['@SUM(A1)', `'@SUM(A1)`],
    ['plain', 'plain'],
    ['a=b', 'a=b'],
  ])('neutralises %s', (input, expected) => {
    expect(neutraliseCell(input)).toBe(expected);
  });

  it('keeps numbers, booleans and empty cells as they are', () => {
    expect(neutraliseCell(-2)).toBe(-2);
    expect(neutraliseCell(true)).toBe(true);
    expect(neutraliseCell(undefined)).toBeNull();
  });

  it('writes a sheet that reads back with headers and neutralised cells', async () => {
    const buffer = await toXlsx('用户数据', [{ header: '用户名', value: (row: { name: string }) => row.name }], [{ name: '=1+1' }, { name: '张三' }]);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(buffer as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    expect(sheet?.name).toBe('用户数据');
    expect(sheet?.getRow(1).getCell(1).value).toBe('用户名');
    expect(sheet?.getRow(2).getCell(1).value).toBe("'=1+1");
    expect(sheet?.getRow(3).getCell(1).value).toBe('张三');
  });
});
