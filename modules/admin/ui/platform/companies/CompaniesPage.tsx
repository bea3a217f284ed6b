import { useTranslation } from '@balcao/plugin-sdk/ui';
import { Card } from 'antd';
import { useSuperOnly } from '../shared/useSuperOnly';
import { CompaniesManager } from './CompaniesManager';

/** /companies (super user only): others get the error toast and go to / after 1 second. */
export function CompaniesPage() {
  const { t } = useTranslation('admin');
  const allowed = useSuperOnly();
  if (!allowed) return null;
  return (
    <Card>
      <CompaniesManager title={t('platform.companies.title')} />
    </Card>
  );
}
