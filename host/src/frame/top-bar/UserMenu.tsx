import { LogoutOutlined, TranslationOutlined } from '@ant-design/icons';
import {
  LANGUAGES,
  type SessionUser,
  sessionEnded,
  setLanguage,
  tokens,
  type UserMenuItem,
  useAppDispatch,
} from '@balcao/plugin-sdk/ui';
import { Avatar, Dropdown, type MenuProps } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { LANGUAGE_NAMES } from '../../language-names';
import { useLogoutMutation } from '../../shell-api';

function initials(name: string): string {
  const parts = name.trim().split(/\s+/).filter(Boolean);
  return ((parts[0]?.[0] ?? '') + (parts.length > 1 ? (parts.at(-1)?.[0] ?? '') : '')).toUpperCase() || '?';
}

/** The avatar menu: items features add (Profile, by the users module), the language, and Logout. */
export function UserMenu({ user, items }: { user: SessionUser; items: UserMenuItem[] }) {
  const { t } = useTranslation('shell');
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const [logout] = useLogoutMutation();
  const [openDialog, setOpenDialog] = useState<string | null>(null);

  const endSession = async () => {
    try {
      await logout();
    } finally {
      tokens.clear();
      dispatch(sessionEnded('logout'));
      navigate('/login', { replace: true });
    }
  };

  const menu: MenuProps['items'] = [
    ...items.map((item) => ({ key: `slot:${item.key}`, label: item.label, icon: item.icon })),
    {
      key: 'language',
      label: t('language.choose'),
      icon: <TranslationOutlined />,
      children: LANGUAGES.map((language) => ({
        key: `language:${language}`,
        label: <span lang={language}>{LANGUAGE_NAMES[language]}</span>,
      })),
    },
    { type: 'divider' },
    { key: 'logout', label: t('topBar.logout'), icon: <LogoutOutlined />, danger: true },
  ];

  const onClick: MenuProps['onClick'] = ({ key }) => {
    if (key === 'logout') void endSession();
    else if (key.startsWith('language:')) void setLanguage(key.slice('language:'.length) as (typeof LANGUAGES)[number]);
    else if (key.startsWith('slot:')) setOpenDialog(key.slice('slot:'.length));
  };

  return (
    <>
      <Dropdown menu={{ items: menu, onClick }} trigger={['click']} placement="bottomRight">
        <button
          type="button"
          aria-label={t('topBar.userMenu')}
          style={{ background: 'none', border: 'none', padding: 0, cursor: 'pointer', display: 'inline-flex' }}
        >
          <Avatar>{initials(user.name)}</Avatar>
        </button>
      </Dropdown>
      {items.map(({ key, Dialog }) => (
        <Dialog key={key} open={openDialog === key} onClose={() => setOpenDialog(null)} />
      ))}
    </>
  );
}
