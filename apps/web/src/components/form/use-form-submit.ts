import { fieldOfMessage } from '@cloud-classroom/shared/message-format';
import { localizeMessage } from '@cloud-classroom/shared/messages';
import type { Locale } from '@cloud-classroom/shared/locale';
import { useMutation } from '@tanstack/react-query';
import { App, type FormInstance } from 'antd';
import { useRef } from 'react';
import { HttpError, notifyError, UserAction, type CallOptions } from '../../lib/http-client';
import { useLanguage } from '../../lib/use-menu-title';

/**
 * Handed to the mutation, which passes it on to its api call: the request then leaves its
 * refusal to this hook, which shows it under the field it names, or as the usual notification,
 * and carries the submit's idempotency keys (`action`).
 */
export type SubmitRequest = CallOptions & { silent: true; action: UserAction };

export type UseFormSubmitOptions<Values, Result> = {
  /** The form whose fields take the refusals naming them; without one every refusal is a notification. */
  form?: FormInstance<Values>;
  /** Sends the values; pass `request` on to the api function (`createUser(body, request)`). */
  mutationFn: (values: Values, request: SubmitRequest) => Promise<Result>;
  /** Shown once the server accepted; none when absent or null. */
  successMessage?: string | null;
  /** After the success message: refresh a list, close a dialog, reload the person… */
  onSuccess?: (result: Result, values: Values) => unknown;
  /** The form field a server field is shown under, where their names differ (`{ dept: 'deptId' }`). */
  fields?: Readonly<Record<string, string>>;
};

export type FormSubmit<Values> = {
  /** Sends already validated values (antd's `onFinish`); resolves whether the server accepted them. */
  submit: (values: Values) => Promise<boolean>;
  submitting: boolean;
};

/**
 * Shows why a submit failed. A 400 or 409 starting with a field of this form (`phone: …`, as
 * every refusal of bad input does) goes under that field, in the page's language; anything
 * else is the notification any failed request shows. 401 and 403 were handled by the client.
 */
export function showRefusal<Values>(
  error: unknown,
  { form, fields, language }: { form?: FormInstance<Values>; fields?: Readonly<Record<string, string>>; language: Locale },
): void {
  if (!(error instanceof HttpError)) {
    notifyError(error instanceof Error ? error.message : String(error));
    return;
  }
  if (error.status === 401 || error.status === 403) return;
  if (form !== undefined && (error.status === 400 || error.status === 409)) {
    const named = fieldOfMessage(error.message);
    const name = named.field === undefined ? undefined : (fields?.[named.field] ?? named.field);
    if (name !== undefined && name in (form.getFieldsValue() as object)) {
      form.setFields([{ name: name as never, errors: [localizeMessage(language, named.text)] }]);
      return;
    }
  }
  notifyError(localizeMessage(language, error.message));
}

/**
 * The one way a back-office form sends itself: runs the mutation, says so on success, and puts
 * a refusal under the field it names (see `showRefusal`). `FormDialog` uses it; so does every
 * form outside a dialog.
 */
export function useFormSubmit<Values, Result = void>({
  form,
  mutationFn,
  successMessage,
  onSuccess,
  fields,
}: UseFormSubmitOptions<Values, Result>): FormSubmit<Values> {
  const { message } = App.useApp();
  const language = useLanguage();
  const mutation = useMutation({ mutationFn: ({ values, action }: { values: Values; action: UserAction }) => mutationFn(values, { silent: true, action }) });
  // A double click's second click lands before React re-renders the button as loading: this
  // ref, set at once, refuses it until the first submit and its onSuccess are over.
  const inFlight = useRef(false);
  // The submit that got no answer (a timeout, the network): the same values sent again are its
  // retry, under its keys, as the server may have done it already.
  const unanswered = useRef<{ values: string; action: UserAction } | undefined>(undefined);

  const submit = async (values: Values) => {
    if (inFlight.current) return false;
    inFlight.current = true;
    try {
      const sent = JSON.stringify(values);
      const action = unanswered.current?.values === sent ? unanswered.current.action.retry() : new UserAction();
      unanswered.current = undefined;
      let result: Result;
      try {
        result = await mutation.mutateAsync({ values, action });
      } catch (error) {
        if (error instanceof HttpError && error.status === 0) unanswered.current = { values: sent, action };
        showRefusal(error, { form, fields, language });
        return false;
      }
      if (successMessage !== undefined && successMessage !== null) message.success(successMessage);
      await onSuccess?.(result, values);
      return true;
    } finally {
      inFlight.current = false;
    }
  };

  return { submit, submitting: mutation.isPending };
}
