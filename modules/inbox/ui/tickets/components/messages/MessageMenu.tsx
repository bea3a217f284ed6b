import { DeleteOutlined, DownOutlined, EditOutlined, EnterOutlined, ForwardOutlined, SmileOutlined } from '@ant-design/icons';
import { useTranslation } from '@balcao/plugin-sdk/ui';
import { Button, Dropdown, type MenuProps } from 'antd';

/** What a message's menu offers (docs/product/tickets-and-inbox.md#states-and-transitions). */
export interface MessageMenuOptions {
  canReply: boolean;
  canReact: boolean;
  canForward: boolean;
  canEdit: boolean;
  canDelete: boolean;
}

export type MessageMenuAction = 'reply' | 'react' | 'forward' | 'edit' | 'delete';

/** The menu of a message: reply, react, forward, edit (own, 15 min) and delete (own). */
export function MessageMenu({ options, onAction }: { options: MessageMenuOptions; onAction(action: MessageMenuAction): void }) {
  const { t } = useTranslation('inbox');
  const items: MenuProps['items'] = [
    options.canReply ? { key: 'reply', icon: <EnterOutlined />, label: t('tickets.messages.menu.reply') } : null,
    options.canReact ? { key: 'react', icon: <SmileOutlined />, label: t('tickets.messages.menu.react') } : null,
    options.canForward ? { key: 'forward', icon: <ForwardOutlined />, label: t('tickets.messages.menu.forward') } : null,
    options.canEdit ? { key: 'edit', icon: <EditOutlined />, label: t('tickets.messages.menu.edit') } : null,
    options.canDelete
      ? { key: 'delete', icon: <DeleteOutlined />, danger: true, label: t('tickets.messages.menu.delete') }
      : null,
  ].filter((item) => item !== null);
  if (items.length === 0) return null;
  return (
    <Dropdown trigger={['click']} menu={{ items, onClick: ({ key }) => onAction(key as MessageMenuAction) }}>
      <Button
        type="text"
        size="small"
        icon={<DownOutlined style={{ fontSize: 10 }} />}
        aria-label={t('tickets.messages.menu.open')}
        style={{ width: 20, height: 20, minWidth: 20 }}
      />
    </Dropdown>
  );
}
