import { FacebookFilled, InstagramOutlined } from '@ant-design/icons';
import { type ComponentSlotProps, errorMessage, useTranslation } from '@balcao/plugin-sdk/ui';
import { Alert, Button, Checkbox, Flex, List, Modal, Result, Spin, Tag, Typography } from 'antd';
import { useState } from 'react';
import {
  type CreatedConnection,
  type FoundPage,
  useConnectFacebookMutation,
  useMetaFacebookPagesMutation,
  useMetaLoginSettingsQuery,
} from '../api';
import { facebookLogin } from '../facebook-sdk';

type Step =
  | { kind: 'login' }
  | { kind: 'choose'; userId: string; token: string; pages: FoundPage[] }
  | { kind: 'done'; connections: CreatedConnection[] };

/** Whether a found page can become a new connection of `channel` (an Instagram one needs a linked account). */
function available(page: FoundPage, channel: 'facebook' | 'instagram'): boolean {
  if (channel === 'instagram') return page.instagram !== null && !page.connected.instagram;
  return !page.connected.facebook;
}

/**
 * The Connections page's Facebook and Instagram add flow (`connectionLogin`, docs/meta.md "Connecting"):
 * Facebook Login in the browser (the JS SDK from the server's configured address) for a user token, the
 * pages it manages and their Instagram accounts, the ones chosen connected with `POST /facebook`, and what
 * was created. Other channels are not this plugin's: nothing renders.
 */
export default function FacebookLogin({ channel, onClose }: ComponentSlotProps['connectionLogin']) {
  if (channel !== 'facebook' && channel !== 'instagram') return null;
  return <FacebookLoginDialog channel={channel} onClose={onClose} />;
}

function FacebookLoginDialog({ channel, onClose }: { channel: 'facebook' | 'instagram'; onClose(): void }) {
  const { t } = useTranslation('meta');
  const settings = useMetaLoginSettingsQuery();
  const [listPages, listing] = useMetaFacebookPagesMutation();
  const [connect, connecting] = useConnectFacebookMutation();
  const [step, setStep] = useState<Step>({ kind: 'login' });
  const [chosen, setChosen] = useState<string[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const [loggingIn, setLoggingIn] = useState(false);

  const logIn = async () => {
    if (!settings.data?.configured) return;
    setProblem(null);
    setLoggingIn(true);
    try {
      const login = await facebookLogin(settings.data);
      if (!login) return setProblem(t('login.cancelled'));
      const { pages } = await listPages({ facebookUserToken: login.token }).unwrap();
      setChosen(pages.filter((page) => available(page, channel)).map((page) => page.id));
      setStep({ kind: 'choose', userId: login.userId, token: login.token, pages });
    } catch (error) {
      setProblem(error instanceof Error && !('data' in error) ? t('login.sdkFailed') : errorMessage(error));
    } finally {
      setLoggingIn(false);
    }
  };

  const connectChosen = async () => {
    if (step.kind !== 'choose' || chosen.length === 0) return;
    setProblem(null);
    try {
      const { connections } = await connect({
        facebookUserId: step.userId,
        facebookUserToken: step.token,
        pageIds: chosen,
        addInstagram: channel === 'instagram',
      }).unwrap();
      setStep({ kind: 'done', connections });
    } catch (error) {
      setProblem(errorMessage(error));
    }
  };

  const title = channel === 'instagram' ? t('login.titleInstagram') : t('login.titleFacebook');
  const settingsProblem = settings.isError
    ? errorMessage(settings.error)
    : settings.data?.configured === false
      ? errorMessage('ERR_META_NOT_CONFIGURED')
      : null;
  return (
    <Modal
      open
      title={title}
      onCancel={onClose}
      destroyOnHidden
      footer={
        step.kind === 'choose' ? (
          <Flex gap={8} justify="flex-end">
            <Button onClick={onClose}>{t('login.cancel')}</Button>
            <Button type="primary" disabled={chosen.length === 0} loading={connecting.isLoading} onClick={connectChosen}>
              {t('login.connect')}
            </Button>
          </Flex>
        ) : (
          <Button onClick={onClose}>{t('login.close')}</Button>
        )
      }
    >
      {problem || settingsProblem ? (
        <Alert type="error" showIcon title={problem ?? settingsProblem} style={{ marginBottom: 12 }} />
      ) : null}
      {step.kind === 'login' ? (
        <Flex vertical gap={12} align="flex-start">
          <Typography.Paragraph style={{ marginBottom: 0 }}>
            {channel === 'instagram' ? t('login.introInstagram') : t('login.introFacebook')}
          </Typography.Paragraph>
          <Button
            type="primary"
            icon={<FacebookFilled />}
            loading={settings.isLoading || loggingIn || listing.isLoading}
            disabled={!settings.data?.configured}
            onClick={logIn}
          >
            {t('login.continue')}
          </Button>
        </Flex>
      ) : null}
      {step.kind === 'choose' ? (
        step.pages.length === 0 ? (
          <Alert type="info" showIcon title={t('login.noPages')} />
        ) : (
          <Spin spinning={connecting.isLoading}>
            <Typography.Paragraph>
              {channel === 'instagram' ? t('login.chooseInstagram') : t('login.chooseFacebook')}
            </Typography.Paragraph>
            <Checkbox.Group value={chosen} onChange={(values) => setChosen(values as string[])} style={{ width: '100%' }}>
              <List
                size="small"
                bordered
                style={{ width: '100%' }}
                dataSource={step.pages}
                renderItem={(page) => (
                  <List.Item data-testid="meta-page">
                    <Checkbox value={page.id} disabled={!available(page, channel)}>
                      <FacebookFilled style={{ color: '#1877F2', marginInlineEnd: 6 }} />
                      {page.name}
                    </Checkbox>
                    <Flex gap={4} wrap>
                      {page.instagram ? (
                        <Tag icon={<InstagramOutlined />}>@{page.instagram.username}</Tag>
                      ) : channel === 'instagram' ? (
                        <Tag>{t('login.noInstagram')}</Tag>
                      ) : null}
                      {(channel === 'instagram' ? page.connected.instagram : page.connected.facebook) ? (
                        <Tag color="green">{t('login.connected')}</Tag>
                      ) : null}
                    </Flex>
                  </List.Item>
                )}
              />
            </Checkbox.Group>
          </Spin>
        )
      ) : null}
      {step.kind === 'done' ? (
        <Result
          status="success"
          title={t('login.done', { count: step.connections.length })}
          extra={
            <List
              size="small"
              dataSource={step.connections}
              renderItem={(connection) => (
                <List.Item data-testid="meta-connected">
                  {connection.channel === 'instagram' ? <InstagramOutlined /> : <FacebookFilled />} {connection.name}
                </List.Item>
              )}
            />
          }
        />
      ) : null}
    </Modal>
  );
}
