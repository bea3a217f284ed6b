import { CheckOutlined, DollarOutlined, PlusOutlined, SearchOutlined } from '@ant-design/icons';
import {
  InfiniteScroll,
  showError,
  toast,
  useNarrowScreen,
  usePagedSearch,
  useSession,
  useTranslation,
} from '@balcao/plugin-sdk/ui';
import {
  Button,
  Card,
  DatePicker,
  Empty,
  Flex,
  Form,
  Input,
  InputNumber,
  List,
  Modal,
  Popconfirm,
  Skeleton,
  Table,
  Tag,
  Typography,
} from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useEffect, useState } from 'react';
import { useCreateInvoiceMutation, useInvoicesQuery, useMarkInvoicePaidMutation } from '../api';
import { AdminOnly } from '../components/AdminOnly';
import { brl, invoiceDate } from '../format';
import type { Invoice } from '../types';

/**
 * /financeiro (docs/product/administration.md "Invoices and subscription"): the company's invoices, page
 * by page as the list scrolls; an open one has a pay button opening its link in a new tab, a paid one shows
 * PAGO. The super user sees every company's, marks invoices paid and makes one-off invoices.
 */
export function InvoicesPage() {
  return (
    <AdminOnly>
      <InvoicesPageContent />
    </AdminOnly>
  );
}

function InvoicesPageContent() {
  const { t } = useTranslation('billing');
  const narrow = useNarrowScreen();
  const isSuper = useSession()?.super === true;
  const { typed, setTyped, searchParam, pageNumber, loadMore } = usePagedSearch();
  const { data, isLoading, isFetching, error } = useInvoicesQuery({ searchParam, pageNumber });
  const [markPaid] = useMarkInvoicePaidMutation();
  const [creating, setCreating] = useState(false);

  useEffect(() => {
    if (error) showError(error);
  }, [error]);

  const action = (invoice: Invoice) => {
    if (invoice.status === 'Pago') return <Tag color="green">{t('invoices.paid')}</Tag>;
    return (
      <Flex gap={4} wrap justify="center">
        {invoice.linkInvoice && (
          <Button
            type="primary"
            size="small"
            icon={<DollarOutlined />}
            onClick={() => window.open(invoice.linkInvoice as string, '_blank', 'noopener')}
          >
            {t('invoices.pay')}
          </Button>
        )}
        {isSuper && (
          <Popconfirm
            title={t('invoices.confirmMarkPaid', { id: invoice.id })}
            onConfirm={async () => {
              try {
                await markPaid(invoice.id).unwrap();
                toast.success(t('invoices.markedPaid'));
              } catch (failure) {
                showError(failure);
              }
            }}
          >
            <Button size="small" icon={<CheckOutlined />}>
              {t('invoices.markPaid')}
            </Button>
          </Popconfirm>
        )}
      </Flex>
    );
  };

  const columns: ColumnsType<Invoice> = [
    { key: 'id', title: t('invoices.id'), dataIndex: 'id', align: 'center', width: 70 },
    ...(isSuper ? [{ key: 'company', title: t('invoices.company'), dataIndex: 'companyName' }] : []),
    { key: 'detail', title: t('invoices.detail'), dataIndex: 'detail' },
    { key: 'users', title: t('invoices.users'), dataIndex: 'users', align: 'center' },
    { key: 'connections', title: t('invoices.connections'), dataIndex: 'connections', align: 'center' },
    { key: 'dueDate', title: t('invoices.dueDate'), align: 'center', render: (_v, invoice) => invoiceDate(invoice.dueDate) },
    { key: 'value', title: t('invoices.value'), align: 'center', render: (_v, invoice) => brl(invoice.value) },
    { key: 'action', title: t('invoices.action'), align: 'center', render: (_v, invoice) => action(invoice) },
  ];
  const invoices = data?.invoices ?? [];
  const empty = <Empty description={t(searchParam ? 'invoices.emptySearch' : 'invoices.empty')} />;

  return (
    <Card>
      <Flex justify="space-between" align="center" gap={8} wrap style={{ marginBottom: 16 }}>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('invoices.title')}
        </Typography.Title>
        <Flex gap={8} wrap>
          <Input
            allowClear
            prefix={<SearchOutlined />}
            placeholder={t('invoices.search')}
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
            style={{ width: narrow ? '100%' : 240 }}
          />
          {isSuper && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)}>
              {t('invoices.new')}
            </Button>
          )}
        </Flex>
      </Flex>
      {isLoading ? (
        <Skeleton active paragraph={{ rows: 6 }} />
      ) : (
        <InfiniteScroll hasMore={data?.hasMore ?? false} loading={isFetching} onLoadMore={loadMore}>
          {narrow ? (
            <List<Invoice>
              dataSource={invoices}
              locale={{ emptyText: empty }}
              renderItem={(invoice) => (
                <List.Item actions={[action(invoice)]}>
                  <List.Item.Meta
                    title={`#${invoice.id} ${invoice.detail}`}
                    description={`${invoiceDate(invoice.dueDate)} · ${brl(invoice.value)} · ${invoice.users}/${invoice.connections}`}
                  />
                </List.Item>
              )}
            />
          ) : (
            <Table<Invoice>
              rowKey="id"
              size="middle"
              columns={columns}
              dataSource={invoices}
              pagination={false}
              scroll={{ x: 'max-content' }}
              locale={{ emptyText: empty }}
            />
          )}
        </InfiniteScroll>
      )}
      {isSuper && <NewInvoiceDialog open={creating} onClose={() => setCreating(false)} />}
    </Card>
  );
}

interface NewInvoiceForm {
  companyId: number;
  detail: string;
  value: number;
  dueDate: { format(pattern: string): string };
}

/** The super user's one-off invoice for a company. */
function NewInvoiceDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const { t } = useTranslation('billing');
  const [form] = Form.useForm<NewInvoiceForm>();
  const [create, { isLoading }] = useCreateInvoiceMutation();
  const submit = async (values: NewInvoiceForm) => {
    try {
      await create({ ...values, dueDate: values.dueDate.format('YYYY-MM-DD') }).unwrap();
      toast.success(t('invoices.created'));
      form.resetFields();
      onClose();
    } catch (failure) {
      showError(failure);
    }
  };
  return (
    <Modal
      open={open}
      title={t('invoices.newTitle')}
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={isLoading}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" onFinish={submit}>
        <Form.Item name="companyId" label={t('invoices.companyId')} rules={[{ required: true }]}>
          <InputNumber min={1} precision={0} style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="detail" label={t('invoices.detail')} rules={[{ required: true, min: 2, max: 255 }]}>
          <Input />
        </Form.Item>
        <Form.Item name="value" label={t('invoices.value')} rules={[{ required: true }]}>
          <InputNumber min={0.01} precision={2} prefix="R$" style={{ width: '100%' }} />
        </Form.Item>
        <Form.Item name="dueDate" label={t('invoices.dueDate')} rules={[{ required: true }]}>
          <DatePicker format="DD/MM/YYYY" style={{ width: '100%' }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
