/** The certificate pages' addresses (hidden routes but the two lists), for the links between them. */
export const CERTIFICATES_LIST_PATH = '/cert/certificate';
export const TEMPLATES_LIST_PATH = '/cert/template';
export const EDIT_CERT_PATH = '/edu/edit-cert';
export const PREVIEW_CERT_PATH = '/edu/preview-cert';
export const ISSUE_CERT_PATH = '/edu/applicant-cert';
export const IMPORT_CERT_PATH = '/edu/import-cert';
