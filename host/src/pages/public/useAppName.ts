import { useGetPublicSettingQuery } from '../../shell-api';

/** The product name: the whitelabel `appName` public setting, or Balcão when it is blank. */
export function useAppName(): string {
  const { data } = useGetPublicSettingQuery('appName');
  return typeof data === 'string' && data.trim().length > 0 ? data.trim() : 'Balcão';
}
