import { formatDate, sessionEnded, tokens, useAppDispatch, useSessionState } from '@balcao/plugin-sdk/ui';
import Button from 'antd/es/button';
import Flex from 'antd/es/flex';
import Result from 'antd/es/result';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useListPluginsQuery, useLogoutMutation } from '../shell-api';
import { ContentSkeleton } from './ContentSkeleton';
import { hasRemote, registerPluginRemotes } from './remotes/plugin-remotes';
import { RemoteRoute } from './remotes/RemoteRoute';

/** The path of the pay screen, which a plugin may serve (docs/product/administration.md#expired-subscription). */
export const EXPIRED_PATH = '/financeiro-aberto';

/**
 * /financeiro-aberto for a signed-in company whose subscription expired: the page of the plugin that
 * serves this path (billing's invoices and checkout), loaded through the federation like any plugin page;
 * with none, the expiry notice. Nothing of the frame loads: everything else would answer 402.
 */
export default function ExpiredPayScreen() {
  const { t } = useTranslation('shell');
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const { subscriptionDueDate } = useSessionState();
  const { data, isError } = useListPluginsQuery();
  const [logout] = useLogoutMutation();
  const plugins = data?.plugins;
  useEffect(() => {
    if (plugins) registerPluginRemotes(plugins);
  }, [plugins]);
  const payScreen = plugins?.filter(hasRemote).find((listing) => listing.routes.some((route) => route.path === EXPIRED_PATH));

  const endSession = async () => {
    try {
      await logout();
    } finally {
      tokens.clear();
      dispatch(sessionEnded('logout'));
      navigate('/login', { replace: true });
    }
  };

  let content = <ContentSkeleton />;
  if (payScreen) content = <RemoteRoute listing={payScreen} path={EXPIRED_PATH} />;
  else if (plugins || isError) {
    content = (
      <Result
        status="warning"
        title={t('expired.title')}
        subTitle={subscriptionDueDate ? t('expired.textWithDate', { date: formatDate(subscriptionDueDate) }) : t('expired.text')}
      />
    );
  }
  return (
    <Flex vertical gap={16} style={{ minHeight: '100%', padding: 16, boxSizing: 'border-box' }}>
      <Flex justify="flex-end">
        <Button onClick={endSession}>{t('topBar.logout')}</Button>
      </Flex>
      {content}
    </Flex>
  );
}
