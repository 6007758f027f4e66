import { downloadFileName } from '@cloud-classroom/shared/display';
import { http, type Query } from './http-client';

/** Saves what `path` answers under SPEC §9's name: a timestamp, then the name and extension. */
export async function downloadFile(path: string, query: Query, name: string, extension = 'xlsx'): Promise<void> {
  const blob = await http.get<Blob>(path, query, { responseType: 'blob' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = downloadFileName(name, extension);
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}
