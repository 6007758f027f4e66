import { StatusPage } from './status-page';

export function NotFoundPage() {
  return <StatusPage code="404" titleKey="page.notFound.title" textKey="page.notFound.text" />;
}
