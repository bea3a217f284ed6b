import { DeleteOutlined, DownloadOutlined } from '@ant-design/icons';
import { type ComponentSlotProps, showError, toast, useAppDispatch, useSession, useTranslation } from '@balcao/plugin-sdk/ui';
import { Alert, Button, Divider, Flex, Input, Modal, Typography } from 'antd';
import { useState } from 'react';
import { downloadContactExport, useErasePrivacyContactMutation } from './api';

/**
 * The contact drawer's LGPD actions, for admins: download the contact's data (a zip) and erase it, the
 * erasure behind a dialog where the contact's name must be typed again.
 */
export default function ContactPrivacyActions({ contact }: ComponentSlotProps['contactDrawer']) {
  const { t } = useTranslation('inbox');
  const session = useSession();
  const dispatch = useAppDispatch();
  const [exporting, setExporting] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [typed, setTyped] = useState('');
  const [erase, { isLoading: erasing }] = useErasePrivacyContactMutation();
  if (session?.profile !== 'admin' || contact.isGroup) return null;

  const exportData = async () => {
    setExporting(true);
    try {
      await downloadContactExport(contact.id, dispatch);
    } catch (error) {
      showError(error);
    } finally {
      setExporting(false);
    }
  };

  const eraseData = async () => {
    try {
      const result = await erase({ contactId: contact.id, confirmation: typed }).unwrap();
      toast.success(t('privacy.erase.done', { messages: result.messages, files: result.files }));
      setConfirming(false);
      setTyped('');
    } catch (error) {
      showError(error);
    }
  };

  return (
    <>
      <Divider plain style={{ margin: '4px 0' }}>
        {t('privacy.drawer.title')}
      </Divider>
      <Flex gap={8} wrap>
        <Button icon={<DownloadOutlined />} loading={exporting} onClick={exportData}>
          {t('privacy.drawer.export')}
        </Button>
        <Button danger icon={<DeleteOutlined />} onClick={() => setConfirming(true)}>
          {t('privacy.drawer.erase')}
        </Button>
      </Flex>
      <Modal
        open={confirming}
        title={t('privacy.erase.title')}
        okText={t('privacy.erase.confirm')}
        okButtonProps={{ danger: true, disabled: typed.trim() !== contact.name.trim(), loading: erasing }}
        cancelText={t('privacy.erase.cancel')}
        onOk={eraseData}
        onCancel={() => {
          setConfirming(false);
          setTyped('');
        }}
        destroyOnHidden
      >
        <Flex vertical gap={12}>
          <Alert type="warning" showIcon title={t('privacy.erase.warning')} />
          <Typography.Text>{t('privacy.erase.typeName', { name: contact.name })}</Typography.Text>
          <Input
            aria-label={t('privacy.erase.typeLabel')}
            value={typed}
            onChange={(event) => setTyped(event.target.value)}
            placeholder={contact.name}
            autoComplete="off"
          />
        </Flex>
      </Modal>
    </>
  );
}
