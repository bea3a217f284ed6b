import Modal from 'antd/es/modal';
import Typography from 'antd/es/typography';
import { useTranslation } from 'react-i18next';

/** docs/product/tickets-and-inbox.md#validation: a weak password (score 2 or lower) asks before logging in. */
export default function LowSecurityDialog({ open, onProceed, onCancel }: { open: boolean; onProceed(): void; onCancel(): void }) {
  const { t } = useTranslation('shell');
  return (
    <Modal
      open={open}
      title={t('login.lowSecurity.title')}
      okText={t('login.lowSecurity.proceed')}
      cancelText={t('login.lowSecurity.cancel')}
      onOk={onProceed}
      onCancel={onCancel}
      centered
    >
      <Typography.Paragraph>{t('login.lowSecurity.text')}</Typography.Paragraph>
    </Modal>
  );
}
