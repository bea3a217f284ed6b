import { UserOutlined } from '@ant-design/icons';
import { Avatar } from 'antd';

/** A contact's picture, or its initial, or a person icon. */
export function ContactAvatar({ name, url, size = 44 }: { name: string; url: string | null | undefined; size?: number }) {
  const initial = Array.from(name.trim())[0]?.toUpperCase();
  return (
    <Avatar size={size} src={url || undefined} icon={!url && !initial ? <UserOutlined /> : undefined} alt={name}>
      {initial}
    </Avatar>
  );
}
