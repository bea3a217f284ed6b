import { NodeIndexOutlined } from '@ant-design/icons';
import { type ComponentSlotProps, useTranslation } from '@balcao/plugin-sdk/ui';
import { Button, Tooltip } from 'antd';
import { useNavigate } from 'react-router';

/** The ticket header's way to the replay of the ticket's flow run. */
export default function FlowPathButton({ ticket }: ComponentSlotProps['ticketHeaderActions']) {
  const { t } = useTranslation('flowbuilder');
  const navigate = useNavigate();
  return (
    <Tooltip title={t('replay.open')}>
      <Button
        type="text"
        icon={<NodeIndexOutlined />}
        aria-label={t('replay.open')}
        onClick={() => navigate(`/flowbuilder/runs/${ticket.id}`)}
      />
    </Tooltip>
  );
}
