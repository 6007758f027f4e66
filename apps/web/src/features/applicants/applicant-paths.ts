/** The applicants page (of the course chosen on the course list), for links from other pages. */
export const APPLICANTS_PAGE_PATH = '/course/term/applicant';

/** The address query that opens the applicants page with its "overdue only" filter on. */
export const OVERDUE_PARAM = 'overdue';

/** The applicants page showing only the overdue enrolments. */
export const overdueApplicantsAddress = () => `${APPLICANTS_PAGE_PATH}?${OVERDUE_PARAM}=1`;
