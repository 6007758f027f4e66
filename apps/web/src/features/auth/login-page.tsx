import { POINT_COOKIE } from '@cloud-classroom/shared/constants';
import type { Captcha } from '@cloud-classroom/shared/auth';
import { fieldOfMessage } from '@cloud-classroom/shared/message-format';
import Cookies from 'js-cookie';
import { useEffect, useState, type FormEvent } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { HttpError } from '../../lib/http-client';
import { getCaptcha } from './auth-api';
import { safeRedirect } from './safe-redirect';
import { cameForPasswordChange } from './sign-out-after-password-change';
import { canUseBackOffice, useUserStore } from './user-store';
import { localizeMessage, setLocale, useLocaleText } from '../../lib/use-locale-text';
import './login-page.css';

type Field = 'username' | 'password' | 'code';

/**
 * Free of antd on purpose (DESIGN.md §8: the login page's budget is 130 KiB, an antd login alone
 * weighs about 208), styled with the same theme colour through CSS variables.
 */
export function LoginPage() {
  const { t, language } = useLocaleText();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const login = useUserStore((state) => state.login);
  const [captcha, setCaptcha] = useState<Captcha>();
  const [values, setValues] = useState({ username: '', password: '', code: '' });
  const [rememberMe, setRememberMe] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [formError, setFormError] = useState<string>();
  const [submitting, setSubmitting] = useState(false);
  // SPEC §8: the 401 handler leaves this cookie so the page can say why the user is back here.
  const [sessionExpired] = useState(() => Cookies.get(POINT_COOKIE) === '401');
  const passwordChanged = cameForPasswordChange(useLocation().state);

  useEffect(() => {
    Cookies.remove(POINT_COOKIE);
    document.title = `${t('login.pageTitle')} - ${t('login.title')}`;
  }, [t]);

  const refreshCaptcha = () => {
    setValues((current) => ({ ...current, code: '' }));
    getCaptcha().then(setCaptcha, () => setCaptcha(undefined));
  };
  useEffect(() => {
    getCaptcha().then(setCaptcha, () => setCaptcha(undefined));
  }, []);

  const captchaEnabled = captcha?.enabled !== false;

  const validate = (): boolean => {
    const found: Partial<Record<Field, string>> = {};
    if (values.username.trim() === '') found.username = t('login.usernameRequired');
    if (values.password === '') found.password = t('login.passwordRequired');
    if (captchaEnabled && values.code.trim() === '') found.code = t('login.codeRequired');
    setErrors(found);
    return Object.keys(found).length === 0;
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFormError(undefined);
    if (!validate()) return;
    setSubmitting(true);
    try {
      await login({ ...values, uuid: captcha?.uuid ?? '', rememberMe });
      const home = canUseBackOffice(useUserStore.getState().roles) ? '/dashboard' : '/';
      navigate(safeRedirect(searchParams.get('redirect')) ?? home, { replace: true });
    } catch (error) {
      // A message naming a field of this form goes under it, without the name.
      const { field, text } = fieldOfMessage(error instanceof HttpError ? error.message : String(error));
      if (field === 'username' || field === 'password' || field === 'code') setErrors({ [field]: text });
      else setFormError(text);
      // A captcha is good for one try, right or wrong.
      refreshCaptcha();
      setSubmitting(false);
    }
  };

  const field = (name: Field, type: string, autoComplete: string) => (
    <div className="login-field">
      <input
        className={`login-input${errors[name] ? ' login-input--invalid' : ''}`}
        name={name}
        type={type}
        autoComplete={autoComplete}
        placeholder={t(`login.${name}`)}
        aria-label={t(`login.${name}`)}
        aria-invalid={errors[name] !== undefined}
        value={values[name]}
        onChange={(event) => setValues((current) => ({ ...current, [name]: event.target.value }))}
      />
      {errors[name] && <div className="login-field__error">{localizeMessage(language, errors[name])}</div>}
    </div>
  );

  return (
    <main className="login-page">
      <button type="button" className="login-language" onClick={() => void setLocale(language === 'en-US' ? 'zh-CN' : 'en-US')}>
        {t('login.language')}
      </button>
      <form className="login-card" onSubmit={submit} noValidate>
        <h1 className="login-card__title">{t('login.title')}</h1>
        <p className="login-card__subtitle">{t('login.subtitle')}</p>
        {(sessionExpired || passwordChanged) && (
          <div className="login-notice" role="status">
            {t(passwordChanged ? 'login.passwordChanged' : 'error.sessionExpired')}
          </div>
        )}
        {field('username', 'text', 'username')}
        {field('password', 'password', 'current-password')}
        {captchaEnabled && (
          <div className="login-captcha">
            {field('code', 'text', 'off')}
            <button type="button" className="login-captcha__image" onClick={refreshCaptcha} title={t('login.codeImage')}>
              {captcha && <img src={captcha.img} alt={t('login.codeImage')} />}
            </button>
          </div>
        )}
        <label className="login-remember">
          <input type="checkbox" checked={rememberMe} onChange={(event) => setRememberMe(event.target.checked)} />
          {t('login.rememberMe')}
        </label>
        {formError && (
          <div className="login-form-error" role="alert">
            {localizeMessage(language, formError)}
          </div>
        )}
        <button type="submit" className="button button--primary login-submit" disabled={submitting}>
          {submitting ? t('login.submitting') : t('login.submit')}
        </button>
      </form>
    </main>
  );
}
