import { Form, Grid, Modal, type FormInstance } from 'antd';
import { useId, useLayoutEffect, useState, type ReactNode } from 'react';
import { useFormSubmit, type SubmitRequest } from '../form/use-form-submit';
import { useListMessages } from './list-page-messages';

export type FormDialogProps<Values, Result> = {
  open: boolean;
  title: ReactNode;
  /** The values the form starts with on each opening, whatever the previous opening left in it. */
  initialValues?: Partial<Values>;
  /** Pass your own form to watch fields (`Form.useWatch`); otherwise the dialog makes one. */
  form?: FormInstance<Values>;
  /**
   * Sends the validated values; pass `request` on to the api function, so a refusal naming a
   * field shows under it. A rejection keeps the dialog open.
   */
  onSubmit: (values: Values, request: SubmitRequest) => Promise<Result>;
  /** After a successful submit and before closing: refresh the list, show a one-time answer… */
  onSuccess?: (result: Result) => void;
  onClose: () => void;
  /** The message shown on success; `null` shows none. Defaults to "saved". */
  successMessage?: string | null;
  /** The OK button's label, where the dialog does something other than save (Revoke); defaults to "confirm". */
  okText?: string;
  /** The Cancel button's label, given with `okText`; defaults to "cancel". */
  cancelText?: string;
  /** Whether the OK button warns of a step that cannot be undone. */
  danger?: boolean;
  width?: number;
  labelWidth?: number;
  /** The form field a server field is shown under, where their names differ (`{ dept: 'deptId' }`). */
  fields?: Readonly<Record<string, string>>;
  children: ReactNode;
};

/**
 * Puts the form back to the dialog's current initial values when it mounts, that is once per
 * opening. antd merges a remounted form's initial values *under* what its store still holds, and a
 * form instance outlives its dialog (the page's own `Form.useForm`, or a dialog that stays mounted
 * while closed), so without this the second row edited showed, and sent, the first row's values.
 */
function ResetOnOpen({ form }: { form: FormInstance }) {
  useLayoutEffect(() => form.resetFields(), [form]);
  return null;
}

/**
 * The add/edit dialog of a list page: antd Modal + Form, submit with a spinning OK button, closes
 * on success. Field rules come from `zodRule(sharedSchema.shape.<field>)`. It submits through
 * `useFormSubmit`: a server 400 or 409 naming a field of this form is shown under that field.
 */
export function FormDialog<Values extends object, Result = void>({
  open,
  title,
  initialValues,
  form: givenForm,
  onSubmit,
  onSuccess,
  onClose,
  successMessage,
  okText,
  cancelText,
  danger = false,
  width = 560,
  labelWidth = 90,
  fields,
  children,
}: FormDialogProps<Values, Result>) {
  const t = useListMessages();
  const [ownForm] = Form.useForm<Values>();
  const formName = `dialog-${useId().replace(/:/g, '')}`;
  const form = givenForm ?? ownForm;
  const { submit: send, submitting } = useFormSubmit<Values, Result>({
    form,
    mutationFn: onSubmit,
    successMessage: successMessage === undefined ? t('list.saved') : successMessage,
    onSuccess: (result) => {
      onSuccess?.(result);
      onClose();
    },
    fields,
  });
  // Counts openings, so each one mounts a fresh form even before the closing animation unmounted the last.
  const [opening, setOpening] = useState(open ? 1 : 0);
  const [wasOpen, setWasOpen] = useState(open);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) setOpening(opening + 1);
  }
  const screens = Grid.useBreakpoint();
  const narrow = screens.sm === false;

  const submit = async () => {
    let values: Values;
    try {
      values = await form.validateFields();
    } catch {
      return; // antd shows the messages under the fields.
    }
    await send(values);
  };

  return (
    <Modal
      open={open}
      title={title}
      width={width}
      okText={okText ?? t('common.confirm')}
      cancelText={cancelText ?? t('common.cancel')}
      okButtonProps={{ danger }}
      confirmLoading={submitting}
      onOk={() => void submit()}
      onCancel={onClose}
      destroyOnHidden
      mask={{ closable: false }}
    >
      <Form<Values>
        key={opening}
        form={form}
      // antd derives field ids from the form name: without one, a dialog's name field and the
      // search bar's share an id, and the dialog's label points at the search input.
      name={formName}
        layout={narrow ? 'vertical' : 'horizontal'}
        labelCol={narrow ? undefined : { flex: `${labelWidth}px` }}
        labelWrap
        initialValues={initialValues}
        preserve={false}
        onFinish={() => void submit()}
      >
        {children}
        <ResetOnOpen form={form} />
        {/* Enter in a field submits like the OK button. */}
        <button type="submit" hidden />
      </Form>
    </Modal>
  );
}
