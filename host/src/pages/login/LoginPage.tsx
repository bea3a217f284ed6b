import {
  daysUntil,
  errorCodeOf,
  errorMessage,
  expiredDueDate,
  sessionStarted,
  showError,
  toast,
  tokens,
  useAppDispatch,
} from '@balcao/plugin-sdk/ui';
import Button from 'antd/es/button';
import Checkbox from 'antd/es/checkbox';
import Flex from 'antd/es/flex';
// the input's own files: the index would also bring TextArea, Search and OTP
import Input from 'antd/es/input/Input';
import Password from 'antd/es/input/Password';
import { type FormEvent, lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { setPostLoginDestination } from '../../app/post-login';
import { type LoginRequest, useGetPublicSettingQuery, useGetSupportChatQuery, useLoginMutation } from '../../shell-api';
import { FieldError } from '../public/FieldError';
import { PublicLayout } from '../public/PublicLayout';
import { checkEmail, checkRequired, type ValidationIssue } from '../public/validation';
import { PasswordStrengthBar } from './PasswordStrengthBar';
import { passwordScore, WEAK_PASSWORD_MAX_SCORE } from './password-strength';
import { forgetSupportChatVisitor, hideSupportChat, openSupportChat } from './support-chat';

// only weak passwords need it: kept out of the login's first download
const LowSecurityDialog = lazy(() => import('./LowSecurityDialog'));

/** docs/product/tickets-and-inbox.md#states-and-transitions, #constants-and-limits: the expiry warning shows when fewer than this many days remain. */
export const EXPIRY_WARNING_DAYS = 5;

/**
 * The login screen of docs/product/tickets-and-inbox.md#screens-and-routes and #validation. Plain inputs rather than antd's Form: this page is the first
 * download, and two fields don't need a form engine.
 */
export function LoginPage() {
  const { t, i18n } = useTranslation('shell');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(false);
  const [issues, setIssues] = useState<{ email: ValidationIssue | null; password: ValidationIssue | null }>({
    email: null,
    password: null,
  });
  const [login, { isLoading }] = useLoginMutation();
  const { data: allowSignup } = useGetPublicSettingQuery('allowSignup');
  // asked once the page is up (a query starts after the first render); no button until it answers
  const { data: supportChat } = useGetSupportChatQuery();
  const [pending, setPending] = useState<LoginRequest | null>(null);
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  useEffect(() => setPostLoginDestination(null), []);
  useEffect(() => hideSupportChat, []);

  const submit = async (request: LoginRequest) => {
    setPending(null);
    const result = await login(request);
    if (result.error) {
      const error = result.error;
      if (errorCodeOf(error) === 'ERR_SUBSCRIPTION_EXPIRED') {
        const dueDate = (error as { data?: { dueDate?: unknown } }).data?.dueDate;
        toast.error(errorMessage(error));
        navigate('/financeiro-aberto', { state: { dueDate: typeof dueDate === 'string' ? dueDate : null } });
        return;
      }
      showError(error);
      return;
    }
    if (!result.data) return;
    const { token, user } = result.data;
    tokens.write(token);
    forgetSupportChatVisitor();
    const remaining = daysUntil(user.company.dueDate);
    // a past due date: the session reaches only /financeiro-aberto, where the guards send it, with the expiry error
    const lapsedOn = expiredDueDate(user);
    if (lapsedOn) toast.error(errorMessage({ status: 402, data: { error: 'ERR_SUBSCRIPTION_EXPIRED', dueDate: lapsedOn } }));
    else if (remaining < EXPIRY_WARNING_DAYS) toast.warning(t('login.expiresSoon', { count: Math.max(remaining, 0) }));
    // the public-route guard performs the navigation (see post-login.ts)
    setPostLoginDestination('/tickets');
    dispatch(sessionStarted(user));
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const found = { email: checkEmail(email), password: checkRequired(password) };
    setIssues(found);
    if (found.email || found.password) return;
    const request: LoginRequest = { email: email.trim().toLowerCase(), password, remember };
    if (passwordScore(password) <= WEAK_PASSWORD_MAX_SCORE) setPending(request);
    else void submit(request);
  };

  return (
    <PublicLayout title={t('login.title')}>
      <form onSubmit={onSubmit} noValidate>
        <Flex vertical gap={16}>
          <div>
            <label htmlFor="login-email" style={{ display: 'block', marginBottom: 6 }}>
              {t('login.email')}
            </label>
            <Input
              id="login-email"
              type="email"
              autoComplete="username"
              inputMode="email"
              autoFocus
              value={email}
              status={issues.email ? 'error' : undefined}
              aria-invalid={issues.email !== null}
              aria-describedby={issues.email ? 'login-email-error' : undefined}
              onChange={(event) => setEmail(event.target.value)}
            />
            <FieldError id="login-email-error" issue={issues.email} />
          </div>
          <div>
            <label htmlFor="login-password" style={{ display: 'block', marginBottom: 6 }}>
              {t('login.password')}
            </label>
            <Password
              id="login-password"
              autoComplete="current-password"
              value={password}
              status={issues.password ? 'error' : undefined}
              aria-invalid={issues.password !== null}
              aria-describedby={issues.password ? 'login-password-error' : undefined}
              onChange={(event) => setPassword(event.target.value)}
            />
            <FieldError id="login-password-error" issue={issues.password} />
            {password ? <PasswordStrengthBar password={password} /> : null}
          </div>
          <Flex justify="space-between" align="center" wrap gap={8}>
            <Checkbox checked={remember} onChange={(event) => setRemember(event.target.checked)}>
              {t('login.remember')}
            </Checkbox>
            <Link to="/forgetpsw">{t('login.forgot')}</Link>
          </Flex>
          <Button type="primary" htmlType="submit" block loading={isLoading}>
            {t('login.submit')}
          </Button>
          {allowSignup === 'enabled' ? (
            <Button block onClick={() => navigate('/signup')}>
              {t('login.register')}
            </Button>
          ) : null}
          {supportChat?.widgetKey && supportChat.scriptUrl ? (
            <Button
              block
              type="link"
              onClick={() =>
                openSupportChat(
                  { widgetKey: supportChat.widgetKey as string, scriptUrl: supportChat.scriptUrl as string },
                  i18n.resolvedLanguage ?? 'pt',
                )
              }
            >
              {t('login.supportChat')}
            </Button>
          ) : null}
        </Flex>
      </form>
      {pending ? (
        <Suspense fallback={null}>
          <LowSecurityDialog open onProceed={() => void submit(pending)} onCancel={() => setPending(null)} />
        </Suspense>
      ) : null}
    </PublicLayout>
  );
}
