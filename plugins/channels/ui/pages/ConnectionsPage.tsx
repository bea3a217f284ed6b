import { ReloadOutlined } from '@ant-design/icons';
import {
  PluginSlot,
  showError,
  toast,
  useNarrowScreen,
  usePermission,
  useSession,
  useSlotEntries,
  useTranslation,
} from '@balcao/plugin-sdk/ui';
import { Alert, Button, Card, Flex, Popconfirm, Tooltip, Typography } from 'antd';
import { useListConnectionsQuery, useRestartConnectionsMutation } from '../api';
import { AddConnectionMenu } from '../components/AddConnectionMenu';
import { ConnectionEditor } from '../components/ConnectionEditor';
import { ConnectionsList } from '../components/ConnectionsList';
import { NoAccess } from '../components/NoAccess';
import { QrCodeDialog } from '../components/QrCodeDialog';
import { useConnectionDialogs } from '../components/useConnectionDialogs';

/** The channels whose connections their platform's login makes (`POST /facebook`), not the editor. */
const LOGIN_CHANNELS = new Set(['facebook', 'instagram']);

/**
 * Connections (/connections, docs/product/administration.md#screens-and-routes): the company's connections, live through
 * `company-{id}-whatsapp` and `-whatsappSession`, with the add menu, the per-status session buttons, the QR
 * dialog, the editor and restart-all. A profile user without allowConnections sees the no-access screen;
 * with it, they act as an admin here (docs/product/roles-and-permissions.md#roles-in-the-inbox).
 */
export function ConnectionsPage() {
  const { t } = useTranslation('channels');
  const user = useSession();
  const mayView = usePermission('connections-page:actionButtons');
  const mayAdd = usePermission('connections-page:addConnection');
  const mayEdit = usePermission('connections-page:editOrDeleteConnection');
  const { data: connections, isError, refetch } = useListConnectionsQuery(undefined, { skip: !mayView });
  const [restart, restarting] = useRestartConnectionsMutation();
  const dialogs = useConnectionDialogs();
  // on a phone, restart-all is an icon: with its words the header's buttons leave the title a single letter
  const narrow = useNarrowScreen();
  // Facebook and Instagram are connected by their platform's login, which a plugin brings (`connectionLogin`);
  // without one the editor opens, as for every other channel
  const logins = useSlotEntries('connectionLogin');
  const { editor } = dialogs;
  const byLogin = editor.open && editor.connectionId === null && LOGIN_CHANNELS.has(editor.channel) && logins.length > 0;

  if (!mayView) return <NoAccess />;

  const restartAll = async () => {
    try {
      await restart().unwrap();
      toast.info(t('toasts.restarting'));
    } catch (failure) {
      showError(failure);
    }
  };

  return (
    <Card
      title={
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('page.title')}
        </Typography.Title>
      }
      extra={
        <Flex gap={8} wrap justify="flex-end">
          <Popconfirm
            title={t('confirm.restartTitle')}
            description={t('confirm.restart')}
            okText={t('confirm.yes')}
            cancelText={t('confirm.no')}
            onConfirm={restartAll}
          >
            <Tooltip title={narrow ? t('page.restartAll') : undefined}>
              <Button
                icon={<ReloadOutlined />}
                loading={restarting.isLoading}
                aria-label={narrow ? t('page.restartAll') : undefined}
              >
                {narrow ? null : t('page.restartAll')}
              </Button>
            </Tooltip>
          </Popconfirm>
          {mayAdd ? <AddConnectionMenu companyId={user?.companyId} onAdd={dialogs.add} /> : null}
        </Flex>
      }
      styles={{ body: { padding: 12 } }}
    >
      {isError ? (
        <Alert
          type="error"
          showIcon
          title={t('page.loadFailed')}
          action={
            <Button size="small" onClick={() => refetch()}>
              {t('page.retry')}
            </Button>
          }
          style={{ marginBottom: 12 }}
        />
      ) : null}
      <ConnectionsList
        connections={isError ? [] : connections}
        showSession={mayView}
        mayEdit={mayEdit}
        onEdit={(connection) => dialogs.edit(connection.id, connection.channel)}
        onShowQr={dialogs.showQr}
        onShowPairingCode={dialogs.showPairingCode}
      />
      {byLogin ? <PluginSlot name="connectionLogin" props={{ channel: editor.channel, onClose: dialogs.closeEditor }} /> : null}
      <ConnectionEditor
        open={dialogs.editor.open && !byLogin}
        connectionId={dialogs.editor.connectionId}
        channel={dialogs.editor.channel}
        onClose={dialogs.closeEditor}
      />
      <QrCodeDialog
        connection={connections?.find((connection) => connection.id === dialogs.qrFor)}
        method={dialogs.linkMethod}
        onClose={dialogs.closeQr}
      />
    </Card>
  );
}
