import { EyeOutlined } from '@ant-design/icons';
import { useNarrowScreen, useSession, useTranslation } from '@balcao/plugin-sdk/ui';
import { Alert, Button, Card, Empty, Modal, Skeleton, Table, Tooltip, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { Navigate } from 'react-router';
import { useListAllConnectionsQuery, useListCompaniesQuery } from '../api';
import { AddConnectionMenu } from '../components/AddConnectionMenu';
import { ConnectionEditor } from '../components/ConnectionEditor';
import { ConnectionsList } from '../components/ConnectionsList';
import { QrCodeDialog } from '../components/QrCodeDialog';
import { useConnectionDialogs } from '../components/useConnectionDialogs';
import type { Connection } from '../types';

/** One company's line of the overview. */
export interface CompanyCounts {
  companyId: number;
  name: string;
  connected: number;
  disconnected: number;
  total: number;
}

/**
 * The overview's lines (docs/product/administration.md#all-connections): per company, its CONNECTED connections, the
 * others (any status that is not CONNECTED counts as disconnected) and the total; every listed company
 * appears, with zeros when it has none. Sorted by company name.
 */
export function countByCompany(
  connections: readonly Connection[],
  companies: readonly { id: number; name: string }[],
): CompanyCounts[] {
  const lines = new Map<number, CompanyCounts>();
  for (const company of companies)
    lines.set(company.id, { companyId: company.id, name: company.name, connected: 0, disconnected: 0, total: 0 });
  for (const connection of connections) {
    const line = lines.get(connection.companyId) ?? {
      companyId: connection.companyId,
      name: connection.companyName ?? `#${connection.companyId}`,
      connected: 0,
      disconnected: 0,
      total: 0,
    };
    if (connection.status === 'CONNECTED') line.connected += 1;
    else line.disconnected += 1;
    line.total += 1;
    lines.set(connection.companyId, line);
  }
  return [...lines.values()].sort((a, b) => a.name.localeCompare(b.name) || a.companyId - b.companyId);
}

/** The overview is not followed by sockets (they are per company): it refreshes while open. */
const OVERVIEW_REFRESH_MS = 10_000;

/**
 * All connections (/allConnections, super user only; others are sent to /tickets): counts per company, a
 * totals row, and per company a dialog with its connections, their session actions, edit, delete and add.
 */
export function AllConnectionsPage() {
  const { t } = useTranslation('channels');
  const user = useSession();
  const isSuper = user?.super === true;
  const narrow = useNarrowScreen();
  const { data: connections, isError } = useListAllConnectionsQuery(undefined, {
    skip: !isSuper,
    pollingInterval: OVERVIEW_REFRESH_MS,
  });
  const { data: companies, isError: companiesFailed } = useListCompaniesQuery(undefined, { skip: !isSuper });
  const [openCompany, setOpenCompany] = useState<CompanyCounts | null>(null);
  // without the company list the lines still come from the connections (companies without any are missing)
  const lines = useMemo(
    () => (connections && (companies || companiesFailed) ? countByCompany(connections, companies ?? []) : undefined),
    [connections, companies, companiesFailed],
  );

  if (!isSuper) return <Navigate to="/tickets" replace />;

  const sum = (field: 'connected' | 'disconnected' | 'total') => (lines ?? []).reduce((total, line) => total + line[field], 0);

  return (
    <Card
      title={
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('all.title')}
        </Typography.Title>
      }
      styles={{ body: { padding: 12 } }}
    >
      {isError ? <Alert type="error" showIcon title={t('page.loadFailed')} style={{ marginBottom: 12 }} /> : null}
      {lines === undefined && !isError ? (
        <Skeleton active paragraph={{ rows: 5 }} />
      ) : (lines ?? []).length === 0 ? (
        <Empty description={t('all.empty')} />
      ) : (
        <Table<CompanyCounts>
          rowKey="companyId"
          size={narrow ? 'small' : 'middle'}
          pagination={false}
          scroll={{ x: true }}
          dataSource={lines}
          onRow={(line) => ({ 'data-testid': `company-${line.companyId}` }) as React.HTMLAttributes<HTMLElement>}
          columns={[
            { key: 'name', title: t('all.company'), dataIndex: 'name' },
            { key: 'connected', title: t('all.connected'), dataIndex: 'connected', align: 'center' },
            { key: 'disconnected', title: t('all.disconnected'), dataIndex: 'disconnected', align: 'center' },
            { key: 'total', title: t('all.total'), dataIndex: 'total', align: 'center' },
            {
              key: 'open',
              title: t('columns.actions'),
              align: 'center',
              render: (_v, line) => (
                <Tooltip title={t('all.open')}>
                  <Button
                    size="small"
                    type="text"
                    icon={<EyeOutlined />}
                    aria-label={`${t('all.open')} — ${line.name}`}
                    onClick={() => setOpenCompany(line)}
                  />
                </Tooltip>
              ),
            },
          ]}
          summary={() => (
            <Table.Summary.Row data-testid="totals">
              <Table.Summary.Cell index={0}>
                <Typography.Text strong>{t('all.totals')}</Typography.Text>
              </Table.Summary.Cell>
              <Table.Summary.Cell index={1} align="center">
                <Typography.Text strong>{sum('connected')}</Typography.Text>
              </Table.Summary.Cell>
              <Table.Summary.Cell index={2} align="center">
                <Typography.Text strong>{sum('disconnected')}</Typography.Text>
              </Table.Summary.Cell>
              <Table.Summary.Cell index={3} align="center">
                <Typography.Text strong>{sum('total')}</Typography.Text>
              </Table.Summary.Cell>
              <Table.Summary.Cell index={4} />
            </Table.Summary.Row>
          )}
        />
      )}
      <CompanyConnectionsDialog
        company={openCompany}
        connections={(connections ?? []).filter((connection) => connection.companyId === openCompany?.companyId)}
        ownCompanyId={user?.companyId}
        onClose={() => setOpenCompany(null)}
      />
    </Card>
  );
}

/**
 * One company's connections from the overview, managed here as on /connections (session actions, edit,
 * delete, add): the super user reaches any company's connection by its id and adds to the company named.
 */
function CompanyConnectionsDialog({
  company,
  connections,
  ownCompanyId,
  onClose,
}: {
  company: CompanyCounts | null;
  connections: Connection[];
  ownCompanyId: number | undefined;
  onClose(): void;
}) {
  const { t } = useTranslation('channels');
  const dialogs = useConnectionDialogs();
  const own = company !== null && company.companyId === ownCompanyId;
  return (
    <Modal
      open={company !== null}
      title={t('all.dialogTitle', { name: company?.name ?? '' })}
      onCancel={onClose}
      footer={null}
      width={1000}
      destroyOnHidden
    >
      <div style={{ display: 'flex', justifyContent: 'flex-end', marginBottom: 12 }}>
        <AddConnectionMenu companyId={company?.companyId} onAdd={dialogs.add} />
      </div>
      <ConnectionsList
        connections={connections}
        showSession
        mayEdit
        onEdit={(connection) => dialogs.edit(connection.id, connection.channel)}
        onShowQr={dialogs.showQr}
        onShowPairingCode={dialogs.showPairingCode}
      />
      <ConnectionEditor
        open={dialogs.editor.open}
        connectionId={dialogs.editor.connectionId}
        channel={dialogs.editor.channel}
        companyId={own ? undefined : company?.companyId}
        onClose={dialogs.closeEditor}
      />
      <QrCodeDialog
        connection={connections.find((connection) => connection.id === dialogs.qrFor)}
        method={dialogs.linkMethod}
        onClose={dialogs.closeQr}
      />
    </Modal>
  );
}
