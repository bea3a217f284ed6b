import { toast, useTranslation } from '@balcao/plugin-sdk/ui';
import { useEffect } from 'react';

/** docs/product/administration.md#errors: a list that fails to load says 'Não foi possível carregar a lista de registros'. */
export function useLoadErrorToast(failed: boolean): void {
  const { t } = useTranslation('admin');
  useEffect(() => {
    if (failed) toast.error(t('platform.common.loadError'));
  }, [failed, t]);
}
