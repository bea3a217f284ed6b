import { CheckOutlined, ClockCircleOutlined, ExclamationCircleFilled } from '@ant-design/icons';
import { useTranslation } from '@balcao/plugin-sdk/ui';
import { theme } from 'antd';
import type { ReactNode } from 'react';
import type { Message } from '../../../../shared/types';

/** Two checks drawn over each other (delivered / read). */
function DoubleCheck({ color }: { color: string }) {
  return (
    <span style={{ display: 'inline-flex', color, fontSize: 12 }}>
      <CheckOutlined />
      <CheckOutlined style={{ marginInlineStart: -7 }} />
    </span>
  );
}

/**
 * The delivery mark of an own message (docs/product/tickets-and-inbox.md#states-and-transitions): 0 pending (clock), 1 sent (one check), 2 delivered (two
 * grey checks), 3 to 5 read or played (two blue checks); a failed delivery shows a red mark.
 */
export function AckIcon({ message }: { message: Pick<Message, 'ack' | 'sendStatus'> }) {
  const { t } = useTranslation('inbox');
  const { token } = theme.useToken();
  const label = message.sendStatus === 'failed' ? t('tickets.messages.failed') : t(`tickets.messages.ack.${message.ack}`);
  let icon: ReactNode;
  if (message.sendStatus === 'failed') icon = <ExclamationCircleFilled style={{ color: token.colorError, fontSize: 12 }} />;
  else if (message.ack <= 0) icon = <ClockCircleOutlined style={{ fontSize: 11, color: token.colorTextTertiary }} />;
  else if (message.ack === 1) icon = <CheckOutlined style={{ fontSize: 12, color: token.colorTextTertiary }} />;
  else if (message.ack === 2) icon = <DoubleCheck color={token.colorTextTertiary} />;
  else icon = <DoubleCheck color="#34B7F1" />;
  return (
    <span role="img" aria-label={label} title={label}>
      {icon}
    </span>
  );
}
