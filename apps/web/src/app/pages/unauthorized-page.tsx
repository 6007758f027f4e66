import { StatusPage } from './status-page';

export function UnauthorizedPage() {
  return <StatusPage code="401" titleKey="page.forbidden.title" textKey="page.forbidden.text" />;
}
