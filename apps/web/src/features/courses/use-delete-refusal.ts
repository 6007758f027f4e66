import { localizeMessage } from '@cloud-classroom/shared/messages';
import { App } from 'antd';
import { createElement, Fragment } from 'react';
import { showRefusal } from '../../components/form/use-form-submit';
import { HttpError } from '../../lib/http-client';
import { useLanguage } from '../../lib/use-menu-title';
import { useCourseMessages } from './courses-messages';

/**
 * Explains a refused delete. A 409 (the row is still in use: a category with courses, a term
 * people are enrolled in) is a dialog saying why in the page's language, with the server's own
 * words beneath, as a notification that fades could be missed; anything else is the usual notice.
 */
export function useDeleteRefusal(): (error: unknown, explanation: string) => void {
  const { modal } = App.useApp();
  const t = useCourseMessages();
  const language = useLanguage();
  return (error, explanation) => {
    if (error instanceof HttpError && error.status === 409) {
      modal.error({
        title: t('courses.cannotDelete'),
        content: createElement(
          Fragment,
          null,
          createElement('p', null, explanation),
          createElement('p', { className: 'course-refusal-detail' }, t('courses.serverSaid', { message: localizeMessage(language, error.message) })),
        ),
      });
      return;
    }
    showRefusal(error, { language });
  };
}
