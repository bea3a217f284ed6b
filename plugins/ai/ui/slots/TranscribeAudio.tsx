import { AudioOutlined } from '@ant-design/icons';
import { type ComponentSlotProps, errorMessage, useTranslation } from '@balcao/plugin-sdk/ui';
import { Alert, Button, Modal, Skeleton, Typography } from 'antd';
import { useState } from 'react';
import { useLazyTranscribeAudioQuery } from '../api';

/** The last part of a media address: what `GET /messages/transcribeAudio/:fileName` takes. */
const FILE_NAME = /\/([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+)$/;

type Outcome = { text: string } | { error: string };

/**
 * The ticket view's audio transcription (docs/ai.md "Transcription"): a button under each audio message
 * opens a modal with the text, or the reason it has none — an address of an unexpected form, an answer
 * without text, the server's error, else an unknown error.
 */
export default function TranscribeAudio({ message }: ComponentSlotProps['messageActions']) {
  const { t } = useTranslation('ai');
  const [open, setOpen] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const [transcribe, { isFetching }] = useLazyTranscribeAudioQuery();
  if (message.mediaType !== 'audio' || !message.mediaUrl) return null;
  const start = async () => {
    setOpen(true);
    setOutcome(null);
    const fileName = FILE_NAME.exec(message.mediaUrl ?? '')?.[1];
    if (!fileName) return setOutcome({ error: t('transcription.badUrl') });
    const answer = await transcribe(fileName);
    if (answer.error) {
      const code = (answer.error as { data?: { error?: unknown } }).data?.error;
      return setOutcome({ error: typeof code === 'string' ? errorMessage(code) : t('transcription.unknown') });
    }
    const text = (answer.data as { transcribedText?: unknown } | undefined)?.transcribedText;
    setOutcome(typeof text === 'string' ? { text } : { error: t('transcription.invalid') });
  };
  return (
    <>
      <Button size="small" type="link" icon={<AudioOutlined />} onClick={start} style={{ paddingInline: 0 }}>
        {t('transcription.action')}
      </Button>
      <Modal
        open={open}
        title={t('transcription.title')}
        onCancel={() => setOpen(false)}
        footer={<Button onClick={() => setOpen(false)}>{t('transcription.close')}</Button>}
        destroyOnHidden
      >
        {isFetching || outcome === null ? (
          <Skeleton active paragraph={{ rows: 2 }} title={false} aria-label={t('transcription.loading')} />
        ) : 'text' in outcome ? (
          <Typography.Paragraph data-testid="transcription-text" style={{ whiteSpace: 'pre-wrap', marginBottom: 0 }}>
            {outcome.text}
          </Typography.Paragraph>
        ) : (
          <Alert type="error" showIcon message={outcome.error} />
        )}
      </Modal>
    </>
  );
}
