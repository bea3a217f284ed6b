import { CheckOutlined } from '@ant-design/icons';
import { PLAN_FLAGS, showError, toast, useTranslation } from '@balcao/plugin-sdk/ui';
import { Button, Checkbox, Col, Flex, Form, Input, InputNumber, Row, Space, Switch, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import {
  type Plan,
  type PlanBody,
  type PluginPlanFlagInfo,
  useCreatePlanMutation,
  useDeletePlanMutation,
  useListPlansQuery,
  useListPluginPlanFlagsQuery,
  useUpdatePlanMutation,
} from '../api';
import { EditDeleteActions } from '../shared/EditDeleteActions';
import { formatMoney } from '../shared/format';
import { RecordsManager } from '../shared/RecordsManager';
import { useLoadErrorToast } from '../shared/useLoadErrorToast';

type PlanFormValues = Omit<PlanBody, 'amount'> & { amount: number | null };

const EMPTY_PLAN: PlanFormValues = {
  name: '',
  users: 0,
  connections: 0,
  queues: 0,
  amount: 0,
  isPublic: true,
  pluginFlags: {},
  ...(Object.fromEntries(PLAN_FLAGS.map((flag) => [flag, false])) as Record<(typeof PLAN_FLAGS)[number], boolean>),
};

/** The flags loaded plugins declare for themselves and the label of each in the UI's language. */
function usePluginPlanFlags(): Array<{ key: string; label: string }> {
  const { i18n } = useTranslation('admin');
  const { data } = useListPluginPlanFlagsQuery();
  const language = (i18n.resolvedLanguage ?? 'pt') as keyof PluginPlanFlagInfo['label'];
  return (data?.flags ?? []).map((flag) => ({ key: flag.key, label: flag.label[language] ?? flag.label.pt }));
}

/**
 * Plans (docs/product/administration.md#screens-and-routes, Plans tab): form plus table; the ten flags
 * and the loaded plugins' own, the limits, value and public.
 */
export function PlansManager() {
  const { t } = useTranslation('admin');
  const pluginFlags = usePluginPlanFlags();
  const { data, isLoading, isError } = useListPlansQuery();
  useLoadErrorToast(isError);
  const [remove] = useDeletePlanMutation();
  const [dialog, setDialog] = useState<{ open: boolean; plan: Plan | null }>({ open: false, plan: null });

  const onDelete = async (plan: Plan) => {
    try {
      await remove(plan.id).unwrap();
      toast.success(t('platform.common.success'));
    } catch (error) {
      const code = (error as { data?: { error?: string } }).data?.error;
      if (code === 'ERR_PLAN_IN_USE') showError(error);
      else toast.error(t('platform.common.deleteError'));
    }
  };

  const yes = (value: boolean) => (value ? <CheckOutlined aria-label={t('platform.common.yes')} /> : null);
  const columns: ColumnsType<Plan> = [
    { key: 'name', title: t('platform.plans.fields.name'), dataIndex: 'name' },
    { key: 'users', title: t('platform.plans.fields.users'), dataIndex: 'users', align: 'center' },
    { key: 'connections', title: t('platform.plans.fields.connections'), dataIndex: 'connections', align: 'center' },
    { key: 'queues', title: t('platform.plans.fields.queues'), dataIndex: 'queues', align: 'center' },
    { key: 'amount', title: t('platform.plans.fields.amount'), render: (_value, plan) => formatMoney(plan.amount) },
    {
      key: 'isPublic',
      title: t('platform.plans.fields.isPublic'),
      align: 'center',
      render: (_value, plan) => yes(plan.isPublic),
    },
    {
      // one column of the plan's features, wrapping, instead of ten flag columns that pushed the table
      // into a sideways scroll under the sticky actions column
      key: 'features',
      title: t('platform.plans.fields.features'),
      render: (_value, plan) => {
        const on = [
          ...PLAN_FLAGS.filter((flag) => plan[flag]).map((flag) => ({ key: flag, label: t(`platform.plans.flags.${flag}`) })),
          ...pluginFlags.filter((flag) => plan.pluginFlags?.[flag.key]),
        ];
        return on.length === 0 ? (
          '—'
        ) : (
          <Flex wrap gap={4} data-testid={`plan-features-${plan.id}`}>
            {on.map((flag) => (
              <Tag key={flag.key} style={{ marginInlineEnd: 0 }}>
                {flag.label}
              </Tag>
            ))}
          </Flex>
        );
      },
    },
    {
      key: 'actions',
      title: t('platform.common.actions'),
      fixed: 'right',
      render: (_value, plan) => (
        <Space size={2}>
          <EditDeleteActions onEdit={() => setDialog({ open: true, plan })} onDelete={() => onDelete(plan)} />
        </Space>
      ),
    },
  ];

  return (
    <RecordsManager<Plan>
      addLabel={t('platform.plans.newTitle')}
      onAdd={() => setDialog({ open: true, plan: null })}
      isLoading={isLoading}
      isError={isError}
      data={data}
      columns={columns}
      dialog={{
        open: dialog.open,
        title: t(dialog.plan ? 'platform.plans.editTitle' : 'platform.plans.newTitle'),
        width: 640,
        onClose: () => setDialog({ open: false, plan: null }),
        form: (
          <PlanForm
            key={dialog.plan?.id ?? 'new'}
            plan={dialog.plan}
            pluginFlags={pluginFlags}
            onClose={() => setDialog({ open: false, plan: null })}
          />
        ),
      }}
    />
  );
}

function PlanForm({
  plan,
  pluginFlags,
  onClose,
}: {
  plan: Plan | null;
  pluginFlags: Array<{ key: string; label: string }>;
  onClose(): void;
}) {
  const { t } = useTranslation('admin');
  const [createPlan, creating] = useCreatePlanMutation();
  const [updatePlan, updating] = useUpdatePlanMutation();
  const initialValues: PlanFormValues = plan ? { ...plan, amount: Number(plan.amount) } : EMPTY_PLAN;
  const required = { required: true, message: t('platform.common.required') };

  const submit = async (values: PlanFormValues) => {
    // a flag the form doesn't show (its list not loaded) keeps its value: the API turns off what a body leaves out
    const body: PlanBody = {
      ...values,
      name: values.name.trim(),
      amount: values.amount ?? 0,
      pluginFlags: { ...plan?.pluginFlags, ...values.pluginFlags },
    };
    try {
      if (plan) await updatePlan({ id: plan.id, ...body }).unwrap();
      else await createPlan(body).unwrap();
      toast.success(t('platform.common.success'));
      onClose();
    } catch {
      toast.error(t('platform.common.saveError'));
    }
  };

  const limit = (name: 'users' | 'connections' | 'queues') => (
    <Col xs={12} md={6}>
      <Form.Item name={name} label={t(`platform.plans.fields.${name}`)} rules={[required]}>
        <InputNumber min={0} max={100000} precision={0} style={{ width: '100%' }} />
      </Form.Item>
    </Col>
  );

  return (
    <Form<PlanFormValues> layout="vertical" initialValues={initialValues} onFinish={submit} requiredMark={false}>
      <Row gutter={12}>
        <Col xs={24} md={16}>
          <Form.Item
            name="name"
            label={t('platform.plans.fields.name')}
            rules={[{ ...required, whitespace: true }, { max: 100 }]}
          >
            <Input autoFocus />
          </Form.Item>
        </Col>
        <Col xs={24} md={8}>
          <Form.Item name="isPublic" label={t('platform.plans.fields.isPublic')} valuePropName="checked">
            <Switch />
          </Form.Item>
        </Col>
        {limit('users')}
        {limit('connections')}
        {limit('queues')}
        <Col xs={12} md={6}>
          <Form.Item name="amount" label={t('platform.plans.fields.amount')} rules={[required]}>
            <InputNumber min={0} step={0.01} prefix="R$" style={{ width: '100%' }} />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item label={t('platform.plans.fields.features')}>
        <Row gutter={[8, 4]}>
          {PLAN_FLAGS.map((flag) => (
            <Col xs={12} md={8} key={flag}>
              <Form.Item name={flag} valuePropName="checked" noStyle>
                <Checkbox>{t(`platform.plans.flags.${flag}`)}</Checkbox>
              </Form.Item>
            </Col>
          ))}
          {pluginFlags.map((flag) => (
            <Col xs={12} md={8} key={flag.key}>
              <Form.Item name={['pluginFlags', flag.key]} valuePropName="checked" noStyle>
                <Checkbox>{flag.label}</Checkbox>
              </Form.Item>
            </Col>
          ))}
        </Row>
      </Form.Item>
      <Flex justify="end" gap={8}>
        <Button onClick={onClose}>{t('platform.common.cancel')}</Button>
        <Button type="primary" htmlType="submit" loading={creating.isLoading || updating.isLoading}>
          {t(plan ? 'platform.common.save' : 'platform.common.add')}
        </Button>
      </Flex>
    </Form>
  );
}
