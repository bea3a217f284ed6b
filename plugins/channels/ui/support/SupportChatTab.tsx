import { showError, toast, useTranslation } from '@balcao/plugin-sdk/ui';
import { Alert, Card, Empty, Flex, Select, Skeleton, Typography } from 'antd';
import { Link } from 'react-router';
import { acceptsOrigin, useGetSupportChatSettingsQuery, useSetSupportChatMutation } from './api';

/**
 * Settings → Chat de suporte (super user; docs/channels/widget.md "The login page's support chat"): which
 * webchat connection of the platform company the login page's support-chat button opens, or none (no button).
 * Saves on change. Warns when the chosen connection's allowed origins leave out this address, where the login
 * page is served.
 */
export default function SupportChatTab() {
  const { t } = useTranslation('channels');
  const { data, isLoading, isError } = useGetSupportChatSettingsQuery();
  const [save, saving] = useSetSupportChatMutation();

  if (isLoading) return <Skeleton active paragraph={{ rows: 3 }} />;
  if (isError || !data) return <Empty description={t('supportChat.loadError')} />;

  const chosen = data.connections.find((connection) => connection.id === data.whatsappId) ?? null;
  const choose = async (whatsappId: number | null) => {
    try {
      await save(whatsappId).unwrap();
      toast.success(t('supportChat.saved'));
    } catch (error) {
      showError(error);
    }
  };

  return (
    <Card size="small" title={t('supportChat.title')}>
      <Flex vertical gap={12} style={{ maxWidth: 560 }}>
        <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
          {t('supportChat.help')}
        </Typography.Paragraph>
        {data.connections.length === 0 ? (
          <Empty
            image={Empty.PRESENTED_IMAGE_SIMPLE}
            description={
              <>
                {t('supportChat.noConnections')} <Link to="/connections">{t('supportChat.toConnections')}</Link>
              </>
            }
          />
        ) : (
          <div>
            <Typography.Text style={{ display: 'block', marginBottom: 6 }}>{t('supportChat.connection')}</Typography.Text>
            <Select<number | null>
              aria-label={t('supportChat.connection')}
              style={{ width: '100%' }}
              value={data.whatsappId}
              loading={saving.isLoading}
              disabled={saving.isLoading}
              onChange={(value) => void choose(value ?? null)}
              options={[
                { value: null, label: t('supportChat.none') },
                ...data.connections.map((connection) => ({ value: connection.id, label: connection.name })),
              ]}
            />
          </div>
        )}
        {chosen && !acceptsOrigin(chosen, window.location.origin) ? (
          <Alert type="warning" showIcon title={t('supportChat.originRefused', { origin: window.location.origin })} />
        ) : null}
      </Flex>
    </Card>
  );
}
