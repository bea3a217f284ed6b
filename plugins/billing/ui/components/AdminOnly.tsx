import { StopOutlined } from '@ant-design/icons';
import { useSession, useTranslation } from '@balcao/plugin-sdk/ui';
import { Button, Result } from 'antd';
import type { ReactNode } from 'react';
import { useNavigate } from 'react-router';

/**
 * Invoices and the subscription are denied to profile users (docs/product/roles-and-permissions.md): they
 * see this view instead of the page; the server refuses them anyway.
 */
export function AdminOnly({ children }: { children: ReactNode }) {
  const { t } = useTranslation('billing');
  const navigate = useNavigate();
  const user = useSession();
  if (user && user.profile !== 'admin' && !user.super) {
    return (
      <Result
        status="403"
        icon={<StopOutlined />}
        title={t('denied.title')}
        subTitle={t('denied.description')}
        extra={
          <Button type="primary" onClick={() => navigate('/tickets')}>
            {t('denied.back')}
          </Button>
        }
      />
    );
  }
  return <>{children}</>;
}
