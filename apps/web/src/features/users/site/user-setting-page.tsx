import { fieldOfMessage } from '@cloud-classroom/shared/message-format';
import type { MessageKey } from '@cloud-classroom/shared/messages';
import type { UserCenter } from '@cloud-classroom/shared/users';
import { NICK_NAME_MAX_LENGTH } from '@cloud-classroom/shared/text-limits';
import { formValidators } from '@cloud-classroom/shared/validators';
import { useId, useState, type ChangeEvent, type FormEvent, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { LimitedTextField } from '../../../components/site/limited-text-field';
import { SiteShell, UserAvatar } from '../../../components/site/site-shell';
import { useOneAction } from '../../../components/site/use-one-action';
import { useDocumentTitle } from '../../../components/site/use-document-title';
import { http, HttpError } from '../../../lib/http-client';
import { localizeMessage, useLocaleText } from '../../../lib/use-locale-text';
import { signOutAfterPasswordChange } from '../../auth/sign-out-after-password-change';
import { useUserStore } from '../../auth/user-store';
import { NotificationPreferencesForm } from '../../notifications/site/notification-preferences';
import './user-site.css';

// users.ts holds these too, but it builds zod schemas: the learner pages load no zod.
const GENDERS = ['男', '女'] as const satisfies readonly NonNullable<UserCenter['gender']>[];
const AVATAR_MAX_BYTES = 2 * 1024 * 1024;
const AVATAR_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

type Errors<Field extends string> = Partial<Record<Field, string>>;

/**
 * A refusal from the server: one naming a field of this form goes under it (in the page's
 * language where the catalogue knows the words), anything else above the button.
 */
function placeRefusal<Field extends string>(error: unknown, fields: readonly Field[], language: Parameters<typeof localizeMessage>[0]) {
  const message = error instanceof Error ? error.message : String(error);
  const { field, text } = fieldOfMessage(message);
  if (field !== undefined && (fields as readonly string[]).includes(field)) return { fields: { [field]: localizeMessage(language, text) } as Errors<Field> };
  return { form: localizeMessage(language, message) };
}

function Field({ id, label, error, hint, children }: { id: string; label: string; error?: string; hint?: string; children: ReactNode }) {
  return (
    <div className="user-site-field">
      <label htmlFor={id}>{label}</label>
      {children}
      {hint !== undefined && (
        <p id={`${id}-hint`} className="user-site-hint">
          {hint}
        </p>
      )}
      {error !== undefined && (
        <p id={`${id}-error`} className="user-site-error">
          {error}
        </p>
      )}
    </div>
  );
}

/** The input's aria wiring to its hint and error. */
const described = (id: string, error: string | undefined, hint = false) => ({
  id,
  'aria-invalid': error !== undefined,
  'aria-describedby': [hint ? `${id}-hint` : '', error !== undefined ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined,
});

function FormResult({ ok, error }: { ok: string | undefined; error: string | undefined }) {
  return (
    <>
      {error !== undefined && (
        <p className="site-notice site-notice--danger" role="alert">
          {error}
        </p>
      )}
      <p className="user-site-hint" role="status">
        {ok}
      </p>
    </>
  );
}

type ProfileField = 'nickName' | 'gender' | 'phone' | 'email';

function ProfileForm() {
  const { t, language } = useLocaleText();
  const user = useUserStore((state) => state.user);
  const prefix = useId();
  const [values, setValues] = useState({
    nickName: user?.nickName ?? '',
    gender: GENDERS.find((gender) => gender === user?.gender) ?? '',
    phone: user?.phone ?? '',
    email: user?.email ?? '',
  });
  const [errors, setErrors] = useState<Errors<ProfileField>>({});
  const [formError, setFormError] = useState<string>();
  const [saved, setSaved] = useState<string>();
  const { busy, run } = useOneAction();

  const setValue = (field: ProfileField, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    setSaved(undefined);
  };
  const set = (field: ProfileField) => (event: ChangeEvent<HTMLInputElement>) => setValue(field, event.target.value);

  const check = (): Errors<ProfileField> => {
    const found: Errors<ProfileField> = {};
    const nick = values.nickName.trim();
    if (nick.length < 2 || nick.length > 20) found.nickName = t('userSetting.nickNameLength');
    const rules: Array<[ProfileField, boolean, MessageKey]> = [
      ['phone', formValidators.mobile.test(values.phone.trim()), formValidators.mobile.messageKey],
      ['email', formValidators.email.test(values.email.trim()), formValidators.email.messageKey],
    ];
    for (const [field, ok, key] of rules) if (!ok) found[field] = t(key);
    return found;
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFormError(undefined);
    setSaved(undefined);
    const found = check();
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    await run(async (action) => {
      try {
        const blankToNull = (value: string) => (value.trim() === '' ? null : value.trim());
        await http.put(
          'api/users/center',
          { nickName: values.nickName.trim(), gender: values.gender === '' ? null : values.gender, phone: blankToNull(values.phone), email: blankToNull(values.email) },
          { silent: true, action },
        );
        await useUserStore.getState().getInfo();
        setSaved(t('userSetting.saved'));
      } catch (error) {
        if (error instanceof HttpError && (error.status === 401 || error.status === 403)) return;
        const placed = placeRefusal(error, ['nickName', 'gender', 'phone', 'email'] as const, language);
        setErrors(placed.fields ?? {});
        setFormError(placed.form);
      }
    });
  };

  const id = (field: string) => `${prefix}-${field}`;
  return (
    <form className="user-site-form" onSubmit={(event) => void submit(event)} noValidate>
      <Field id={id('username')} label={t('userSetting.username')}>
        <input className="user-site-input" id={id('username')} value={user?.username ?? ''} disabled />
      </Field>
      <Field id={id('nickName')} label={t('userSetting.nickName')} error={errors.nickName}>
        <LimitedTextField
          className="user-site-input"
          {...described(id('nickName'), errors.nickName)}
          value={values.nickName}
          onChange={(nickName) => setValue('nickName', nickName)}
          max={NICK_NAME_MAX_LENGTH}
          autoComplete="nickname"
          required
        />
      </Field>
      <div className="user-site-field">
        <fieldset>
          <legend>{t('userSetting.gender')}</legend>
          <div className="user-site-radios">
            {(['', ...GENDERS] as const).map((gender) => (
              <label key={gender || 'unset'}>
                <input type="radio" name="gender" value={gender} checked={values.gender === gender} onChange={set('gender')} />
                {t(gender === '' ? 'userSetting.unset' : gender === '男' ? 'userSetting.male' : 'userSetting.female')}
              </label>
            ))}
          </div>
        </fieldset>
        {errors.gender !== undefined && <p className="user-site-error">{errors.gender}</p>}
      </div>
      <Field id={id('phone')} label={t('userSetting.phone')} error={errors.phone}>
        <input className="user-site-input" {...described(id('phone'), errors.phone)} value={values.phone} onChange={set('phone')} inputMode="tel" autoComplete="tel" />
      </Field>
      <Field id={id('email')} label={t('userSetting.email')} error={errors.email}>
        <input className="user-site-input" {...described(id('email'), errors.email)} type="email" value={values.email} onChange={set('email')} autoComplete="email" />
      </Field>
      <FormResult ok={saved} error={formError} />
      <div>
        <button type="submit" className="button button--primary" disabled={busy}>
          {busy ? t('userSetting.saving') : t('userSetting.save')}
        </button>
      </div>
    </form>
  );
}

function AvatarForm() {
  const { t, language } = useLocaleText();
  const inputId = useId();
  const [error, setError] = useState<string>();
  const [saved, setSaved] = useState<string>();
  const { busy, run } = useOneAction();

  const choose = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    setSaved(undefined);
    setError(undefined);
    if (file === undefined) return;
    if (!AVATAR_TYPES.includes(file.type)) return setError(t('userSetting.avatarWrongType'));
    if (file.size > AVATAR_MAX_BYTES) return setError(t('userSetting.avatarTooLarge'));
    await run(async (action) => {
      try {
        const form = new FormData();
        form.append('avatar', file, file.name);
        await http.post('api/users/updateAvatar', form, { silent: true, action });
        await useUserStore.getState().getInfo();
        setSaved(t('userSetting.avatarSaved'));
      } catch (caught) {
        if (caught instanceof HttpError && (caught.status === 401 || caught.status === 403)) return;
        const message = caught instanceof Error ? caught.message : String(caught);
        setError(localizeMessage(language, fieldOfMessage(message).text));
      }
    });
  };

  return (
    <div className="user-site-avatar">
      <UserAvatar large />
      <div className="user-site-field">
        {/* A file input hidden behind its label styled as a button: still reached and opened from the keyboard. */}
        <input
          id={inputId}
          className="site-visually-hidden user-site-file"
          type="file"
          accept={AVATAR_TYPES.join(',')}
          disabled={busy}
          aria-describedby={`${inputId}-hint`}
          onChange={(event) => void choose(event)}
        />
        <label htmlFor={inputId} className="button">
          {busy ? t('userSetting.saving') : t('userSetting.chooseImage')}
        </label>
        <p id={`${inputId}-hint`} className="user-site-hint">
          {t('userSetting.avatarRules')}
        </p>
        {error !== undefined && (
          <p className="user-site-error" role="alert">
            {error}
          </p>
        )}
        <p className="user-site-hint" role="status">
          {saved}
        </p>
      </div>
    </div>
  );
}

type PasswordField = 'oldPass' | 'newPass' | 'confirmPass';

function PasswordForm() {
  const { t, language } = useLocaleText();
  const navigate = useNavigate();
  const prefix = useId();
  const [values, setValues] = useState<Record<PasswordField, string>>({ oldPass: '', newPass: '', confirmPass: '' });
  const [errors, setErrors] = useState<Errors<PasswordField>>({});
  const [formError, setFormError] = useState<string>();
  const { busy, run } = useOneAction();

  const check = (): Errors<PasswordField> => {
    const found: Errors<PasswordField> = {};
    if (values.oldPass === '') found.oldPass = t('userSetting.required');
    if (values.newPass.length < 8) found.newPass = t('userSetting.passwordShort');
    else if (values.newPass === values.oldPass) found.newPass = t('userSetting.passwordSame');
    if (values.confirmPass === '') found.confirmPass = t('userSetting.required');
    else if (values.confirmPass !== values.newPass) found.confirmPass = t('userSetting.passwordMismatch');
    return found;
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFormError(undefined);
    const found = check();
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    await run(async (action) => {
      try {
        await http.post('api/users/updatePass', { oldPass: values.oldPass, newPass: values.newPass }, { silent: true, action });
        await signOutAfterPasswordChange(navigate);
      } catch (error) {
        if (error instanceof HttpError && (error.status === 401 || error.status === 403)) return;
        const placed = placeRefusal(error, ['oldPass', 'newPass'] as const, language);
        setErrors(placed.fields ?? {});
        setFormError(placed.form);
      }
    });
  };

  const field = (name: PasswordField, label: MessageKey, autoComplete: string, hint?: string) => {
    const id = `${prefix}-${name}`;
    return (
      <Field id={id} label={t(label)} error={errors[name]} hint={hint}>
        <input
          className="user-site-input"
          {...described(id, errors[name], hint !== undefined)}
          type="password"
          autoComplete={autoComplete}
          value={values[name]}
          onChange={(event) => setValues((current) => ({ ...current, [name]: event.target.value }))}
        />
      </Field>
    );
  };

  return (
    <form className="user-site-form" onSubmit={(event) => void submit(event)} noValidate>
      {field('oldPass', 'userSetting.oldPass', 'current-password')}
      {field('newPass', 'userSetting.newPass', 'new-password', t('userSetting.passwordHint'))}
      {field('confirmPass', 'userSetting.confirmPass', 'new-password')}
      <FormResult ok={undefined} error={formError} />
      <div>
        <button type="submit" className="button button--primary" disabled={busy}>
          {t('userSetting.changePassword')}
        </button>
      </div>
    </form>
  );
}

/** My settings (`/user-setting`): profile, avatar and password, through the personal routes of `api/users`; which notifications I get. */
export function UserSettingPage() {
  const { t } = useLocaleText();
  useDocumentTitle(t('site.userSetting'));
  const sections: Array<[string, MessageKey, ReactNode]> = [
    ['profile', 'userSetting.profile', <ProfileForm key="profile" />],
    ['avatar', 'userSetting.avatar', <AvatarForm key="avatar" />],
    ['password', 'userSetting.password', <PasswordForm key="password" />],
    ['notifications', 'notification.preferences', <NotificationPreferencesForm key="notifications" />],
  ];
  return (
    <SiteShell>
      <h1 className="site-page-title">{t('site.userSetting')}</h1>
      {sections.map(([key, title, form]) => (
        <section key={key} className="site-section" aria-labelledby={`us-${key}`}>
          <h2 id={`us-${key}`} className="site-section__title site-section__title--spaced">
            {t(title)}
          </h2>
          <div className="site-card">{form}</div>
        </section>
      ))}
    </SiteShell>
  );
}
