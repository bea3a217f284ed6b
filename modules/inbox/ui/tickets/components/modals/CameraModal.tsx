import { CameraOutlined } from '@ant-design/icons';
import { useTranslation } from '@balcao/plugin-sdk/ui';
import { Alert, Button, Flex, Modal } from 'antd';
import { useEffect, useRef, useState } from 'react';

/** The camera dialog (docs/product/tickets-and-inbox.md#screens-and-routes): a live picture from getUserMedia, captured as a JPEG file. */
export function CameraModal({ open, onClose, onCapture }: { open: boolean; onClose(): void; onCapture(file: File): void }) {
  const { t } = useTranslation('inbox');
  const videoRef = useRef<HTMLVideoElement>(null);
  const streamRef = useRef<MediaStream | null>(null);
  const [failed, setFailed] = useState(false);
  const [ready, setReady] = useState(false);

  useEffect(() => {
    if (!open) return;
    let cancelled = false;
    setFailed(false);
    setReady(false);
    const media = globalThis.navigator?.mediaDevices;
    if (!media?.getUserMedia) {
      setFailed(true);
      return;
    }
    media.getUserMedia({ video: true, audio: false }).then(
      (stream) => {
        if (cancelled) {
          for (const track of stream.getTracks()) track.stop();
          return;
        }
        streamRef.current = stream;
        if (videoRef.current) {
          videoRef.current.srcObject = stream;
          void videoRef.current.play().catch(() => undefined);
        }
        setReady(true);
      },
      () => setFailed(true),
    );
    return () => {
      cancelled = true;
      // the camera light goes off as soon as the dialog closes
      for (const track of streamRef.current?.getTracks() ?? []) track.stop();
      streamRef.current = null;
    };
  }, [open]);

  const capture = () => {
    const video = videoRef.current;
    if (!video || video.videoWidth === 0) return;
    const canvas = document.createElement('canvas');
    canvas.width = video.videoWidth;
    canvas.height = video.videoHeight;
    canvas.getContext('2d')?.drawImage(video, 0, 0);
    canvas.toBlob(
      (blob) => {
        if (!blob) return;
        onCapture(new File([blob], `camera-${Date.now()}.jpg`, { type: 'image/jpeg' }));
        onClose();
      },
      'image/jpeg',
      0.9,
    );
  };

  return (
    <Modal open={open} title={t('tickets.camera.title')} onCancel={onClose} footer={null} destroyOnHidden width={560}>
      {failed ? (
        <Alert type="error" showIcon title={t('tickets.camera.unavailable')} />
      ) : (
        <Flex vertical gap={12} align="center">
          <video ref={videoRef} playsInline muted style={{ width: '100%', borderRadius: 8, background: '#000' }} />
          <Button type="primary" icon={<CameraOutlined />} disabled={!ready} onClick={capture}>
            {t('tickets.camera.capture')}
          </Button>
        </Flex>
      )}
    </Modal>
  );
}
