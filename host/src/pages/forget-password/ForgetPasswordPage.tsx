import { showError, toast } from '@balcao/plugin-sdk/ui';
import Button from 'antd/es/button';
import Flex from 'antd/es/flex';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Typography from 'antd/es/typography';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useRequestPasswordResetMutation, useResetPasswordMutation } from '../../shell-api';
import { ruleOf } from '../public/form-rules';
import { PublicLayout } from '../public/PublicLayout';
import { checkConfirmation, checkEmail, checkRequired, checkStrongPassword } from '../public/validation';

interface ResetValues {
  code: string;
  newPassword: string;
  confirmPassword: string;
}

/**
 * The password reset of docs/product/administration.md#screens-and-routes, #states-and-transitions, #validation on one page: step 1 asks only the e-mail and sends a
 * code; step 2 takes the code, the new password and its confirmation, then returns to /login.
 */
export default function ForgetPasswordPage() {
  const { t } = useTranslation('shell');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [email, setEmail] = useState<string | null>(null);
  const [requestReset, requestState] = useRequestPasswordResetMutation();
  const [resetPassword, resetState] = useResetPasswordMutation();
  const [resetForm] = Form.useForm<ResetValues>();
  const signupLink = params.get('companyId')
    ? `/signup?companyId=${encodeURIComponent(params.get('companyId') ?? '')}`
    : '/signup';

  const sendCode = async ({ email: typed }: { email: string }) => {
    const address = typed.trim().toLowerCase();
    const result = await requestReset(address);
    if (result.error) {
      if ('status' in result.error && result.error.status === 404) toast.error(t('reset.emailNotFound'));
      else showError(result.error);
      return;
    }
    toast.success(t('reset.codeSent'));
    setEmail(address);
  };

  const reset = async (values: ResetValues) => {
    if (!email) return;
    const result = await resetPassword({ email, code: values.code.trim(), newPassword: values.newPassword });
    if (result.error) {
      showError(result.error);
      return;
    }
    toast.success(t('reset.done'));
    navigate('/login');
  };

  return (
    <PublicLayout title={t('reset.title')}>
      {email === null ? (
        // keys: the two steps are two forms; without them React would keep step 1's form store for step 2
        <Form<{ email: string }>
          key="email-step"
          layout="vertical"
          onFinish={(values) => void sendCode(values)}
          requiredMark={false}
        >
          <Typography.Paragraph type="secondary">{t('reset.stepOneHint')}</Typography.Paragraph>
          <Form.Item label={t('reset.email')} name="email" rules={[ruleOf(checkEmail, t)]}>
            <Input type="email" autoComplete="email" inputMode="email" autoFocus />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={requestState.isLoading}>
            {t('reset.sendCode')}
          </Button>
        </Form>
      ) : (
        <Form<ResetValues>
          key="reset-step"
          form={resetForm}
          layout="vertical"
          onFinish={(values) => void reset(values)}
          requiredMark={false}
        >
          <Typography.Paragraph type="secondary">{t('reset.stepTwoHint', { email })}</Typography.Paragraph>
          <Form.Item label={t('reset.code')} name="code" rules={[ruleOf(checkRequired, t)]}>
            <Input autoComplete="one-time-code" inputMode="numeric" maxLength={6} autoFocus />
          </Form.Item>
          <Form.Item label={t('reset.newPassword')} name="newPassword" rules={[ruleOf(checkStrongPassword, t)]}>
            <Input.Password autoComplete="new-password" />
          </Form.Item>
          <Form.Item
            label={t('reset.confirmPassword')}
            name="confirmPassword"
            dependencies={['newPassword']}
            rules={[ruleOf((value: string) => checkConfirmation(resetForm.getFieldValue('newPassword'), value), t)]}
          >
            <Input.Password autoComplete="new-password" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={resetState.isLoading}>
            {t('reset.submit')}
          </Button>
          <Button type="link" block onClick={() => setEmail(null)} style={{ marginTop: 8 }}>
            {t('reset.changeEmail')}
          </Button>
        </Form>
      )}
      <Flex justify="space-between" style={{ marginTop: 16 }}>
        <Link to="/login">{t('reset.backToLogin')}</Link>
        <Link to={signupLink}>{t('reset.signup')}</Link>
      </Flex>
    </PublicLayout>
  );
}
