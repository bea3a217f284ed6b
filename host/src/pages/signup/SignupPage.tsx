import { CORE_NAMESPACE, errorCodeOf, errorMessage, i18n, toast } from '@balcao/plugin-sdk/ui';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Select from 'antd/es/select';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { type PublicPlan, useGetPublicSettingQuery, useListPublicPlansQuery, useSignupMutation } from '../../shell-api';
import { ruleOf } from '../public/form-rules';
import { PublicLayout } from '../public/PublicLayout';
import { SIGNUP_RULES, type SignupValues } from '../public/validation';

/** The signup failure text: the code's translation when it has a specific one, else the documented generic text. */
function signupFailure(error: unknown, fallback: string): string {
  const code = errorCodeOf(error);
  if (code && code !== 'ERR_VALIDATION' && i18n.exists(`errors.${code}`, { ns: CORE_NAMESPACE })) return errorMessage(error);
  return fallback;
}

function usePlanLabel(): (plan: PublicPlan) => string {
  const { t, i18n: translation } = useTranslation('shell');
  return useMemo(() => {
    const money = new Intl.NumberFormat(translation.resolvedLanguage === 'pt' ? 'pt-BR' : translation.resolvedLanguage, {
      style: 'currency',
      currency: 'BRL',
    });
    return (plan: PublicPlan) =>
      t('signup.planOption', {
        name: plan.name,
        users: plan.users,
        connections: plan.connections,
        queues: plan.queues,
        amount: money.format(Number(plan.amount)),
      });
  }, [t, translation.resolvedLanguage]);
}

/** The signup screen of docs/product/tickets-and-inbox.md#screens-and-routes, #validation and docs/product/administration.md#validation (optional `?companyId`). */
export default function SignupPage() {
  const { t } = useTranslation('shell');
  const [form] = Form.useForm<SignupValues>();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const plans = useListPublicPlansQuery();
  const { data: allowSignup } = useGetPublicSettingQuery('allowSignup');
  const [signup, { isLoading }] = useSignupMutation();
  const planLabel = usePlanLabel();
  const companyIdParam = Number(params.get('companyId'));
  const companyId = Number.isInteger(companyIdParam) && companyIdParam > 0 ? companyIdParam : null;

  const onFinish = async (values: SignupValues) => {
    const result = await signup({
      name: (values.name ?? '').trim(),
      email: (values.email ?? '').trim().toLowerCase(),
      password: values.password ?? '',
      phone: (values.phone ?? '').trim(),
      companyId,
      companyName: (values.companyName ?? '').trim(),
      planId: Number(values.planId),
    });
    if (result.error) {
      toast.error(signupFailure(result.error, t('signup.failed')));
      return;
    }
    toast.success(t('signup.success'));
    navigate('/login');
  };

  return (
    <PublicLayout title={t('signup.title')}>
      {allowSignup !== undefined && allowSignup !== 'enabled' ? (
        <Alert type="warning" showIcon title={t('signup.disabled')} style={{ marginBottom: 16 }} />
      ) : null}
      <Form<SignupValues> form={form} layout="vertical" onFinish={(values) => void onFinish(values)} noValidate>
        <Form.Item label={t('signup.companyName')} name="companyName" required rules={[ruleOf(SIGNUP_RULES.companyName, t)]}>
          <Input autoComplete="organization" />
        </Form.Item>
        <Form.Item label={t('signup.name')} name="name" required rules={[ruleOf(SIGNUP_RULES.name, t)]}>
          <Input autoComplete="name" />
        </Form.Item>
        <Form.Item label={t('signup.email')} name="email" required rules={[ruleOf(SIGNUP_RULES.email, t)]}>
          <Input type="email" autoComplete="email" inputMode="email" />
        </Form.Item>
        <Form.Item label={t('signup.password')} name="password" required rules={[ruleOf(SIGNUP_RULES.password, t)]}>
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item label={t('signup.phone')} name="phone" required rules={[ruleOf(SIGNUP_RULES.phone, t)]}>
          <Input type="tel" autoComplete="tel" inputMode="tel" placeholder="+55 (11) 91234-5678" />
        </Form.Item>
        <Form.Item label={t('signup.plan')} name="planId" required rules={[ruleOf(SIGNUP_RULES.planId, t)]}>
          <Select
            loading={plans.isLoading}
            placeholder={t('signup.choosePlan')}
            notFoundContent={plans.isLoading ? t('common.loading') : t('signup.noPlans')}
            options={(plans.data ?? []).map((plan) => ({ value: plan.id, label: planLabel(plan) }))}
          />
        </Form.Item>
        <Button type="primary" htmlType="submit" block loading={isLoading}>
          {t('signup.submit')}
        </Button>
        <div style={{ textAlign: 'center', marginTop: 16 }}>
          <Link to="/login">{t('signup.haveAccount')}</Link>
        </div>
      </Form>
    </PublicLayout>
  );
}
