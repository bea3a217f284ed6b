import { showError, toast, useTranslation } from '@balcao/plugin-sdk/ui';
import { Button, Col, Flex, Form, Input, InputNumber, Modal, Row, Select } from 'antd';
import {
  type Company,
  type CompanyBody,
  RECURRENCES,
  type Recurrence,
  useCreateCompanyMutation,
  useListPlansQuery,
  useUpdateCompanyMutation,
} from '../api';

export interface CompanyDialogProps {
  open: boolean;
  /** The company to edit; null adds one. */
  company: Company | null;
  onClose(): void;
}

interface CompanyFormValues {
  name: string;
  email: string;
  password?: string;
  phone?: string;
  document?: string;
  planId?: number;
  status: boolean;
  dueDate?: string;
  recurrence: Recurrence;
  paymentMethod?: string;
  numberAttendants: number | null;
  numberConections: number | null;
  value: number | null;
}

/** The password the form proposes for a new company's admin (the documented "default password"). */
export const DEFAULT_COMPANY_PASSWORD = '123456';

/** The company modal (docs/product/administration.md#screens-and-routes, #validation, #constants-and-limits defaults: 1 attendant, 1 connection, inactive). */
export function CompanyDialog({ open, company, onClose }: CompanyDialogProps) {
  const { t } = useTranslation('admin');
  return (
    <Modal
      open={open}
      onCancel={onClose}
      footer={null}
      destroyOnHidden
      width={720}
      title={t(company ? 'platform.companies.editTitle' : 'platform.companies.newTitle')}
    >
      <CompanyForm key={company?.id ?? 'new'} company={company} onClose={onClose} />
    </Modal>
  );
}

function CompanyForm({ company, onClose }: { company: Company | null; onClose(): void }) {
  const { t } = useTranslation('admin');
  const [form] = Form.useForm<CompanyFormValues>();
  const { data: plans = [], isLoading: plansLoading } = useListPlansQuery();
  const [createCompany, creating] = useCreateCompanyMutation();
  const [updateCompany, updating] = useUpdateCompanyMutation();
  const v = (key: string) => t(`platform.companies.validation.${key}`);

  const initialValues: CompanyFormValues = company
    ? {
        name: company.name,
        email: company.email ?? '',
        phone: company.phone ?? '',
        document: company.document ?? '',
        planId: company.planId,
        status: company.status,
        dueDate: company.dueDate,
        recurrence: (RECURRENCES as readonly string[]).includes(company.recurrence)
          ? (company.recurrence as Recurrence)
          : 'MENSAL',
        paymentMethod: company.paymentMethod ?? '',
        numberAttendants: company.numberAttendants,
        numberConections: company.numberConections,
        value: company.value === null ? null : Number(company.value),
      }
    : {
        name: '',
        email: '',
        password: DEFAULT_COMPANY_PASSWORD,
        status: false,
        recurrence: 'MENSAL',
        numberAttendants: 1,
        numberConections: 1,
        value: null,
      };

  const submit = async (values: CompanyFormValues) => {
    const body: CompanyBody = {
      name: values.name.trim(),
      email: values.email.trim().toLowerCase(),
      phone: values.phone?.trim() || null,
      document: values.document?.trim() || null,
      planId: values.planId as number,
      status: values.status,
      recurrence: values.recurrence,
      paymentMethod: values.paymentMethod?.trim() || null,
      numberAttendants: values.numberAttendants ?? 1,
      numberConections: values.numberConections ?? 1,
      value: values.value,
      ...(values.dueDate ? { dueDate: values.dueDate } : {}),
    };
    try {
      if (company) await updateCompany({ id: company.id, ...body }).unwrap();
      else await createCompany({ ...body, password: values.password }).unwrap();
      toast.success(t('platform.common.success'));
      onClose();
    } catch (error) {
      const code = (error as { data?: { error?: string } }).data?.error;
      // known codes say what is wrong; anything else gets the documented "check for a duplicate or wrong fields"
      if (code && code !== 'ERR_VALIDATION') showError(error);
      else toast.error(t('platform.common.saveError'));
    }
  };

  const yesNo = [
    { value: true, label: t('platform.common.yes') },
    { value: false, label: t('platform.common.no') },
  ];

  return (
    <Form<CompanyFormValues> form={form} layout="vertical" initialValues={initialValues} onFinish={submit} requiredMark={false}>
      <Row gutter={12}>
        <Col xs={24} md={12}>
          <Form.Item
            name="name"
            label={t('platform.companies.fields.name')}
            rules={[
              { required: true, whitespace: true, message: v('nameRequired') },
              { min: 2, message: v('nameTooShort') },
              { max: 50, message: v('nameTooLong') },
            ]}
          >
            <Input autoFocus />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item
            name="email"
            label={t('platform.companies.fields.email')}
            rules={[
              { required: true, whitespace: true, message: v('emailRequired') },
              { type: 'email', message: v('emailInvalid') },
            ]}
          >
            <Input type="email" />
          </Form.Item>
        </Col>
        {company ? null : (
          <Col xs={24} md={12}>
            <Form.Item
              name="password"
              label={t('platform.companies.fields.password')}
              extra={t('platform.companies.passwordHelp')}
              rules={[
                { required: true, message: t('platform.common.required') },
                { min: 5, max: 50, message: v('passwordLength') },
              ]}
            >
              <Input.Password autoComplete="new-password" />
            </Form.Item>
          </Col>
        )}
        <Col xs={24} md={12}>
          <Form.Item name="phone" label={t('platform.companies.fields.phone')}>
            <Input />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="document" label={t('platform.companies.fields.document')}>
            <Input />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item
            name="planId"
            label={t('platform.companies.fields.plan')}
            rules={[{ required: true, message: v('planRequired') }]}
          >
            <Select
              loading={plansLoading}
              options={plans.map((plan) => ({ value: plan.id, label: plan.name }))}
              onChange={(planId: number) => {
                // a new plan brings its price unless one was typed
                const plan = plans.find((item) => item.id === planId);
                if (plan && form.getFieldValue('value') === null) form.setFieldValue('value', Number(plan.amount));
              }}
            />
          </Form.Item>
        </Col>
        <Col xs={12} md={6}>
          <Form.Item name="status" label={t('platform.companies.fields.status')}>
            <Select options={yesNo} />
          </Form.Item>
        </Col>
        <Col xs={12} md={6}>
          <Form.Item name="dueDate" label={t('platform.companies.fields.dueDate')}>
            <Input type="date" />
          </Form.Item>
        </Col>
        <Col xs={12} md={6}>
          <Form.Item name="recurrence" label={t('platform.companies.fields.recurrence')}>
            <Select options={RECURRENCES.map((value) => ({ value, label: t(`platform.companies.recurrences.${value}`) }))} />
          </Form.Item>
        </Col>
        <Col xs={12} md={6}>
          <Form.Item
            name="value"
            label={t('platform.companies.fields.value')}
            rules={[{ type: 'number', min: 0, message: v('numeric') }]}
          >
            <InputNumber min={0} step={0.01} style={{ width: '100%' }} prefix="R$" />
          </Form.Item>
        </Col>
        <Col xs={12} md={6}>
          <Form.Item
            name="numberAttendants"
            label={t('platform.companies.fields.numberAttendants')}
            rules={[{ type: 'integer', min: 0, message: v('numeric') }]}
          >
            <InputNumber min={0} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col xs={12} md={6}>
          <Form.Item
            name="numberConections"
            label={t('platform.companies.fields.numberConections')}
            rules={[{ type: 'integer', min: 0, message: v('numeric') }]}
          >
            <InputNumber min={0} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="paymentMethod" label={t('platform.companies.fields.paymentMethod')}>
            <Input />
          </Form.Item>
        </Col>
      </Row>
      <Flex justify="end" gap={8}>
        <Button onClick={onClose}>{t('platform.common.cancel')}</Button>
        <Button type="primary" htmlType="submit" loading={creating.isLoading || updating.isLoading}>
          {t(company ? 'platform.common.save' : 'platform.common.add')}
        </Button>
      </Flex>
    </Form>
  );
}
