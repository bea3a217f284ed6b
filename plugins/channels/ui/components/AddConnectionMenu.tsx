import { DownOutlined, PlusOutlined } from '@ant-design/icons';
import { skipToken, useGetCompanyPlanQuery, useTranslation } from '@balcao/plugin-sdk/ui';
import { Button, Dropdown } from 'antd';
import { ChannelIcon } from './ChannelIcon';

/** The channels the add menu offers and the plan flag each needs (docs/product/administration.md#screens-and-routes; webchat needs none). */
export const ADDABLE_CHANNELS = [
  { channel: 'whatsapp', flag: 'useWhatsapp' },
  { channel: 'whatsappapi', flag: 'useWhatsapp' },
  { channel: 'facebook', flag: 'useFacebook' },
  { channel: 'instagram', flag: 'useInstagram' },
  { channel: 'webchat', flag: null },
] as const;

export type AddableChannel = (typeof ADDABLE_CHANNELS)[number]['channel'];

/**
 * The add menu: WhatsApp (Baileys and the Cloud API), Facebook and Instagram, each enabled only when the company's plan has its flag,
 * and Webchat always. `companyId` is the company the connection is for (the super user's overview adds to
 * other companies, whose plan decides).
 */
export function AddConnectionMenu({ companyId, onAdd }: { companyId: number | undefined; onAdd(channel: AddableChannel): void }) {
  const { t } = useTranslation('channels');
  const { data: plan, isLoading } = useGetCompanyPlanQuery(companyId ?? skipToken);
  const flags = plan?.plan as Record<string, unknown> | undefined;
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        items: ADDABLE_CHANNELS.map(({ channel, flag }) => ({
          key: channel,
          icon: <ChannelIcon channel={channel} />,
          label: t(`channelNames.${channel}`),
          disabled: flag !== null && flags?.[flag] !== true,
        })),
        onClick: ({ key }) => onAdd(key as AddableChannel),
      }}
    >
      <Button type="primary" icon={<PlusOutlined />} loading={isLoading}>
        {t('page.add')} <DownOutlined />
      </Button>
    </Dropdown>
  );
}
