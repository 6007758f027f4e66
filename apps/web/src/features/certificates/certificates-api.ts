import type {
  CertRule,
  CertRuleCreate,
  CertTemplate,
  CertTemplateCreate,
  CertTemplateUpdate,
  CertTemplateVersion,
  Certificate,
  CertificateIssue,
  CertificatesIssued,
} from '@cloud-classroom/shared/certificates';
import type { ImportResult } from '@cloud-classroom/shared/applicants';
import type { Exam } from '@cloud-classroom/shared/exams';
import type { Page } from '@cloud-classroom/shared/http';
import { queryOptions } from '@tanstack/react-query';
import { listQuery } from '../../components/list-page/list-query';
import { apiUrl, http, type CallOptions, type Query } from '../../lib/http-client';
import { examsKeys } from '../exams/exams-api';

export const CERT_TEMPLATES_PATH = 'api/cert-templates';
export const CERTIFICATES_PATH = 'api/certificates';
export const CERT_RULES_PATH = 'api/cert-rules';

/** Everything of the certificates hangs below one first key: a template's write reloads the certificates too (their template names). */
export const certificatesKeys = {
  all: ['certificates'] as const,
  templates: ['certificates', 'templates'] as const,
  template: (id: number) => ['certificates', 'templates', 'detail', id] as const,
  versions: (id: number) => ['certificates', 'templates', 'versions', id] as const,
  certificates: ['certificates', 'certificates'] as const,
  rules: ['certificates', 'rules'] as const,
};

// ---- Templates ----------------------------------------------------------------------------------

/** Filter by `q` (name). */
export const templateList = listQuery<CertTemplate>(certificatesKeys.templates, CERT_TEMPLATES_PATH);

/** One template, for the editor opened from its address alone; silent, as the page says itself what a missing one means. */
export const templateQuery = (id: number) =>
  queryOptions({
    queryKey: certificatesKeys.template(id),
    queryFn: ({ signal }) => http.get<CertTemplate>(`${CERT_TEMPLATES_PATH}/${id}`, undefined, { signal, silent: true }),
  });

export const templateVersionsQuery = (id: number) =>
  queryOptions({
    queryKey: certificatesKeys.versions(id),
    queryFn: ({ signal }) => http.get<CertTemplateVersion[]>(`${CERT_TEMPLATES_PATH}/${id}/versions`, undefined, { signal }),
  });

/** Every template, for the issue page's and the list's selects (never many). */
export const templateOptionsQuery = () =>
  queryOptions({
    queryKey: [...certificatesKeys.templates, 'options'] as const,
    queryFn: ({ signal }) =>
      http.get<Page<CertTemplate>>(CERT_TEMPLATES_PATH, { page: 0, size: 9999, sort: 'id,desc' }, { signal }).then((page) => page.content),
  });

export const createTemplate = (body: CertTemplateCreate, options?: CallOptions) => http.post<{ id: number }>(CERT_TEMPLATES_PATH, body, options);
/** The server puts the layout into a new version when certificates use the current one. */
export const updateTemplate = (body: CertTemplateUpdate, options?: CallOptions) => http.put(CERT_TEMPLATES_PATH, body, options);

/** Stores a PNG or JPEG background; answers its file-store key for the layout. */
export function uploadBackground(file: Blob, name: string, options?: CallOptions): Promise<{ key: string }> {
  const form = new FormData();
  form.append('file', file, name);
  return http.post<{ key: string }>(`${CERT_TEMPLATES_PATH}/backgrounds`, form, options);
}

/** A stored background, for the editor's page: the route takes the session cookie, as CSS url() sends no header. */
export const backgroundUrl = (key: string) => apiUrl(`${CERT_TEMPLATES_PATH}/backgrounds`, { key });

/** The template's PDF with sample data; the route takes the session cookie, so a link or pdf.js can load it. */
export const templatePreviewUrl = (id: number, version?: number) => apiUrl(`${CERT_TEMPLATES_PATH}/${id}/preview`, { version });

// ---- Certificates -------------------------------------------------------------------------------

/** Filter by `q` (number, printed name, username), `templateId`, `status`, `userId`, `examId`, `termId`. */
export const certificateList = listQuery<Certificate>(certificatesKeys.certificates, CERTIFICATES_PATH);

export const issueCertificates = (body: CertificateIssue, options?: CallOptions) => http.post<CertificatesIssued>(`${CERTIFICATES_PATH}/issue`, body, options);
export const revokeCertificates = (ids: readonly number[], reason: string, options?: CallOptions) =>
  http.put(`${CERTIFICATES_PATH}/revoke`, { ids, reason }, options);
export const reissueCertificate = (id: number, holderName: string | null, options?: CallOptions) =>
  http.post<{ id: number; number: string }>(`${CERTIFICATES_PATH}/${id}/reissue`, { holderName }, options);

/** A certificate's PDF, opened in a new tab (the route takes the session cookie). */
export const certificatePdfUrl = (id: number) => apiUrl(`${CERTIFICATES_PATH}/${id}/pdf`);

/**
 * The ZIP of the PDFs of every certificate the list's filter finds (`exportParams`: the filter and
 * sort, no paging). A plain link: the route takes the session cookie and streams the ZIP as yazl
 * writes it, so the browser saves it as it comes instead of the page holding all of it in memory.
 */
export const certificatesZipUrl = (query: Query) => apiUrl(`${CERTIFICATES_PATH}/download`, query);

/** The import's workbook: one example row to overwrite. */
export const CERTIFICATE_TEMPLATE_PATH = `${CERTIFICATES_PATH}/template`;

/**
 * Checks (`dryRun`) or imports a workbook of existing certificates with their own numbers and
 * dates (multipart field `file`). All or nothing: an import with any bad row writes nothing and answers the errors.
 */
export function importCertificates(file: Blob, name: string, dryRun: boolean, options?: CallOptions): Promise<ImportResult> {
  const form = new FormData();
  form.append('file', file, name);
  return http.post<ImportResult>(`${CERTIFICATES_PATH}/import`, form, { ...options, query: { dryRun } });
}

// ---- Issuing rules ------------------------------------------------------------------------------

/** Filter by `templateId`, `examId`, `termId`. */
export const certRuleList = listQuery<CertRule>(certificatesKeys.rules, CERT_RULES_PATH);

/** The server queues issuing for everyone who already qualifies, so certificates follow shortly. */
export const createCertRule = (body: CertRuleCreate, options?: CallOptions) => http.post<{ id: number }>(CERT_RULES_PATH, body, options);

// ---- What the issue page picks from -------------------------------------------------------------

/** Every exam, for the issue page's exam select; below the exams' key, so an exam's write reloads it. */
export const examOptionsQuery = () =>
  queryOptions({
    queryKey: [...examsKeys.exams, 'cert-options'] as const,
    queryFn: ({ signal }) => http.get<Page<Exam>>('api/exams', { page: 0, size: 9999, sort: 'id,desc' }, { signal }).then((page) => page.content),
  });
