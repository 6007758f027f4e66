import { registerMessages } from '../../lib/messages';

// The steps every spreadsheet import shares; what names the rows (questions, certificates) is the page's.
const bundle = {
  'zh-CN': {
    'import.uploadStep': '填写后上传：先检查每一行，此时不会导入',
    'import.chooseFile': '选择 .xlsx 文件',
    'import.chooseAgain': '上传修改后的文件',
    'import.checking': '正在检查…',
    'import.checkResult': '共 {{total}} 行，有效 {{valid}} 行',
    'import.checkErrors_one': '有 {{count}} 处错误，请修改表格后重新上传',
    'import.checkErrors': '有 {{count}} 处错误，请修改表格后重新上传',
    'import.checkClean': '没有发现错误，可以导入',
    'import.errorRow': '行',
    'import.errorColumn': '列',
    'import.errorMessage': '问题',
    'import.importStep': '导入',
    'import.allOrNothing': '导入是整体进行的：只要有一行有错误，就一行也不会导入。请先上传一个没有错误的文件。',
    'import.changed': '文件没有通过导入前的再次检查，未导入任何内容，请查看下面的错误。',
    'import.another': '继续导入',
    'import.notXlsx': '请选择 .xlsx 文件',
  },
  'en-US': {
    'import.uploadStep': 'Fill it in and upload it: every row is checked first, nothing is imported yet',
    'import.chooseFile': 'Choose an .xlsx file',
    'import.chooseAgain': 'Upload the corrected file',
    'import.checking': 'Checking…',
    'import.checkResult': '{{total}} rows, {{valid}} valid',
    'import.checkErrors_one': '1 error: correct the sheet and upload it again',
    'import.checkErrors': '{{count}} errors: correct the sheet and upload it again',
    'import.checkClean': 'No errors: ready to import',
    'import.errorRow': 'Row',
    'import.errorColumn': 'Column',
    'import.errorMessage': 'Problem',
    'import.importStep': 'Import',
    'import.allOrNothing': 'The import is all or nothing: while any row has an error, nothing is imported. Upload a file without errors first.',
    'import.changed': 'The file failed the check again at import: nothing was imported; see the errors below.',
    'import.another': 'Import another file',
    'import.notXlsx': 'Only .xlsx files can be imported',
  },
};

export const useImportMessages = registerMessages(bundle);
