import { MoonOutlined, SunOutlined } from '@ant-design/icons';
import Button from 'antd/es/button';
import { useTranslation } from 'react-i18next';
import { useThemeMode } from '../../theme/ThemeProvider';

/** The light/dark toggle (stored on this device). */
export function ThemeToggle() {
  const { t } = useTranslation('shell');
  const { mode, toggle } = useThemeMode();
  const label = mode === 'dark' ? t('theme.toLight') : t('theme.toDark');
  return (
    <Button
      type="text"
      shape="circle"
      aria-label={label}
      title={label}
      icon={mode === 'dark' ? <SunOutlined /> : <MoonOutlined />}
      onClick={toggle}
    />
  );
}
