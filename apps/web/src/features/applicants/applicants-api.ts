import type {
  Applicant,
  ApplicantCreateBody,
  ApplicantsCreated,
  ApplicantUpdateBody,
  AssignmentRule,
  AssignmentRuleCreateBody,
  AssignmentRuleUpdateBody,
  ImportResult,
} from '@cloud-classroom/shared/applicants';
import type { Term } from '@cloud-classroom/shared/courses';
import type { Page } from '@cloud-classroom/shared/http';
import type { User } from '@cloud-classroom/shared/users';
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import { listQuery } from '../../components/list-page/list-query';
import { http, type CallOptions } from '../../lib/http-client';
import { coursesKeys } from '../courses/courses-api';

export const APPLICANTS_PATH = 'api/applicants';
const RULES_PATH = 'api/assignment-rules';

/** Enrolments and the rules that make them hang below one first key: a rule's write reloads the enrolments too. */
export const applicantsKeys = {
  all: ['applicants'] as const,
  applicants: ['applicants', 'applicants'] as const,
  rules: ['applicants', 'rules'] as const,
  people: ['applicants', 'people'] as const,
  roles: ['applicants', 'roles'] as const,
};

// ---- Enrolments ---------------------------------------------------------------------------------

/** Filter by `courseId` or `termId`, `status`, `source`, `q` (username or nick name) and `overdue`. */
export const applicantList = listQuery<Applicant>(applicantsKeys.applicants, APPLICANTS_PATH);

/** One enrolment as a list page already holds it: the editor starts from it without waiting. */
export function cachedApplicant(queryClient: QueryClient, id: number): Applicant | undefined {
  for (const [, page] of queryClient.getQueriesData<Page<Applicant>>({ queryKey: applicantsKeys.applicants })) {
    const found = page?.content?.find((applicant) => applicant.id === id);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** One enrolment (`GET api/applicants/{id}`), for the editor opened from its address alone. */
export const applicantQuery = (id: number, initialData?: Applicant) =>
  queryOptions({
    queryKey: [...applicantsKeys.applicants, 'one', id] as const,
    queryFn: ({ signal }) => http.get<Applicant>(`${APPLICANTS_PATH}/${id}`, undefined, { signal }),
    initialData,
  });

/** Staff enrol people directly; answers how many were new and how many already were enrolled. */
export const enrolPeople = (body: ApplicantCreateBody, options?: CallOptions) =>
  http.post<ApplicantsCreated>(APPLICANTS_PATH, body, options);
export const updateApplicant = (body: ApplicantUpdateBody, options?: CallOptions) => http.put(APPLICANTS_PATH, body, options);
export const approveApplicants = (ids: readonly number[], options?: CallOptions) => http.put(`${APPLICANTS_PATH}/approve`, ids, options);
export const rejectApplicants = (body: { ids: readonly number[]; reason: string }, options?: CallOptions) =>
  http.put(`${APPLICANTS_PATH}/reject`, body, options);

export const APPLICANT_TEMPLATE_PATH = `${APPLICANTS_PATH}/template`;

/** Checks (`dryRun`) or imports an xlsx of usernames and due dates into one term (multipart field `file`). */
export function importApplicants(termId: number, file: Blob, name: string, dryRun: boolean, options?: CallOptions): Promise<ImportResult> {
  const form = new FormData();
  form.append('file', file, name);
  return http.post<ImportResult>(`${APPLICANTS_PATH}/import`, form, { ...options, query: { termId, dryRun } });
}

// ---- The pickers --------------------------------------------------------------------------------

/** The terms of one course, for the term selectors; below the courses' term key, so a term's write reloads it. */
export const courseTermsQuery = (courseId: number) =>
  queryOptions({
    queryKey: [...coursesKeys.terms, 'of-course', courseId],
    queryFn: ({ signal }) =>
      http.get<Page<Term>>('api/terms', { courseId, page: 0, size: 9999, sort: 'startAt,desc' }, { signal }).then((page) => page.content),
  });

/** People whose username or nick name matches (within the caller's data scope), for the user picker. */
export const peopleSearchQuery = (blurry: string) =>
  queryOptions({
    queryKey: [...applicantsKeys.people, blurry],
    queryFn: ({ signal }) =>
      http.get<Page<User>>('api/users', { blurry: blurry || undefined, page: 0, size: 20, sort: 'id,desc' }, { signal }),
  });

/** Every role, for a role rule. */
export const roleOptionsQuery = () =>
  queryOptions({
    queryKey: applicantsKeys.roles,
    queryFn: ({ signal }) => http.get<{ id: number; name: string }[]>('api/roles/all', undefined, { signal }),
  });

// ---- Assignment rules ---------------------------------------------------------------------------

/** Filter by `courseId` or `termId`. */
export const ruleList = listQuery<AssignmentRule>(applicantsKeys.rules, RULES_PATH);

export const createRule = (body: AssignmentRuleCreateBody, options?: CallOptions) => http.post(RULES_PATH, body, options);
export const updateRule = (body: AssignmentRuleUpdateBody, options?: CallOptions) => http.put(RULES_PATH, body, options);
