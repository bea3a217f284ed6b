import { CalendarOutlined, PlusOutlined } from '@ant-design/icons';
import { formatDate, showError, toast, useNarrowScreen, useTranslation } from '@balcao/plugin-sdk/ui';
import { Button, Empty, Flex, Popconfirm, Skeleton, Space, Table, Tag, Tooltip, Typography, theme } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { type Company, useAdvanceDueDateMutation, useDeleteCompanyMutation, useListCompaniesQuery } from '../api';
import { EditDeleteActions } from '../shared/EditDeleteActions';
import { formatBytes, formatDateTime, formatMoney } from '../shared/format';
import { useLoadErrorToast } from '../shared/useLoadErrorToast';
import { CompanyDialog } from './CompanyDialog';
import { dueHighlight } from './due-highlight';

/**
 * Companies (docs/product/administration.md#screens-and-routes): the table with every column, rows yellow when due in 1 to 5 days and
 * red when due today or past, the advance-due-date button and the company modal.
 */
export function CompaniesManager({ title }: { title?: string }) {
  const { t } = useTranslation('admin');
  const { token } = theme.useToken();
  const narrow = useNarrowScreen();
  const { data, isLoading, isError } = useListCompaniesQuery();
  useLoadErrorToast(isError);
  const [advance, advancing] = useAdvanceDueDateMutation();
  const [remove] = useDeleteCompanyMutation();
  const [dialog, setDialog] = useState<{ open: boolean; company: Company | null }>({ open: false, company: null });

  const recurrence = (value: string) => t(`platform.companies.recurrences.${value}`, { defaultValue: value });

  const onAdvance = async (company: Company) => {
    try {
      await advance(company.id).unwrap();
      toast.success(t('platform.common.success'));
    } catch (error) {
      showError(error);
    }
  };

  const onDelete = async (company: Company) => {
    try {
      await remove(company.id).unwrap();
      toast.success(t('platform.common.success'));
    } catch (error) {
      const code = (error as { data?: { error?: string } }).data?.error;
      if (code === 'ERR_CANNOT_DELETE_OWN_COMPANY') showError(error);
      else toast.error(t('platform.common.deleteError'));
    }
  };

  const columns: ColumnsType<Company> = [
    { key: 'id', title: t('platform.companies.fields.id'), dataIndex: 'id', width: 64 },
    {
      key: 'status',
      title: t('platform.companies.fields.status'),
      render: (_value, company) => (company.status ? t('platform.common.yes') : t('platform.common.no')),
    },
    { key: 'name', title: t('platform.companies.fields.name'), dataIndex: 'name' },
    {
      key: 'email',
      title: t('platform.companies.fields.email'),
      dataIndex: 'email',
      // an address is one long word: it breaks rather than widen the table
      render: (email: string) => <span style={{ wordBreak: 'break-all' }}>{email}</span>,
    },
    { key: 'plan', title: t('platform.companies.fields.plan'), render: (_value, company) => company.plan.name },
    { key: 'value', title: t('platform.companies.fields.value'), render: (_value, company) => formatMoney(company.value) },
    {
      key: 'createdAt',
      title: t('platform.companies.fields.createdAt'),
      render: (_value, company) => formatDate(company.createdAt),
    },
    {
      key: 'dueDate',
      title: t('platform.companies.fields.dueDate'),
      render: (_value, company) => {
        const highlight = dueHighlight(company.dueDate);
        return (
          <Space size={4} wrap>
            <span>
              {t('platform.companies.dueWithRecurrence', {
                date: formatDate(company.dueDate),
                recurrence: recurrence(company.recurrence),
              })}
            </span>
            {highlight ? (
              <Tag color={highlight === 'overdue' ? 'error' : 'warning'}>
                {t(highlight === 'overdue' ? 'platform.companies.overdue' : 'platform.companies.dueSoon')}
              </Tag>
            ) : null}
          </Space>
        );
      },
    },
    {
      key: 'lastLogin',
      title: t('platform.companies.fields.lastLogin'),
      render: (_value, company) => (company.lastLogin ? formatDateTime(company.lastLogin) : t('platform.companies.never')),
    },
    {
      key: 'folderSize',
      title: t('platform.companies.fields.folderSize'),
      render: (_value, company) => formatBytes(company.folderSize),
    },
    { key: 'numberFileFolder', title: t('platform.companies.fields.numberFileFolder'), dataIndex: 'numberFileFolder' },
    {
      key: 'updatedAtFolder',
      title: t('platform.companies.fields.updatedAtFolder'),
      render: (_value, company) => formatDateTime(company.updatedAtFolder),
    },
    {
      key: 'actions',
      title: t('platform.common.actions'),
      fixed: 'right',
      render: (_value, company) => (
        <Space size={2}>
          <Popconfirm
            title={t('platform.companies.advanceConfirm', { name: company.name, recurrence: recurrence(company.recurrence) })}
            okText={t('platform.companies.advanceDueDate')}
            cancelText={t('platform.common.cancel')}
            onConfirm={() => onAdvance(company)}
          >
            <Tooltip title={t('platform.companies.advanceDueDate')}>
              <Button
                type="text"
                icon={<CalendarOutlined />}
                aria-label={t('platform.companies.advanceDueDate')}
                loading={advancing.isLoading && advancing.originalArgs === company.id}
              />
            </Tooltip>
          </Popconfirm>
          <EditDeleteActions onEdit={() => setDialog({ open: true, company })} onDelete={() => onDelete(company)} />
        </Space>
      ),
    },
  ];

  const background = { soon: token.colorWarningBg, overdue: token.colorErrorBg } as const;

  return (
    <>
      <Flex wrap gap={8} align="center" justify="space-between" style={{ marginBottom: 12 }}>
        {title ? (
          <Typography.Title level={4} style={{ margin: 0 }}>
            {title}
          </Typography.Title>
        ) : (
          <span />
        )}
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setDialog({ open: true, company: null })}>
          {t('platform.companies.add')}
        </Button>
      </Flex>
      {isLoading ? (
        <Skeleton active paragraph={{ rows: 8 }} />
      ) : isError ? (
        <Empty description={t('platform.common.loadError')} />
      ) : (
        <Table<Company>
          rowKey="id"
          size="small"
          columns={columns}
          dataSource={data ?? []}
          pagination={{ pageSize: 20, hideOnSinglePage: true }}
          // a sideways scroll only on a phone: on wider screens the columns wrap, so none hides under the actions
          scroll={narrow ? { x: 'max-content' } : undefined}
          locale={{ emptyText: <Empty description={t('platform.common.empty')} /> }}
          onRow={(company) => {
            const highlight = dueHighlight(company.dueDate);
            return highlight
              ? ({ 'data-due': highlight, style: { background: background[highlight] } } as React.HTMLAttributes<HTMLElement>)
              : {};
          }}
        />
      )}
      <CompanyDialog open={dialog.open} company={dialog.company} onClose={() => setDialog({ open: false, company: null })} />
    </>
  );
}
