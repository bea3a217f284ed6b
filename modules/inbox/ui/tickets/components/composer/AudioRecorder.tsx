import { AudioOutlined, CheckOutlined, CloseOutlined } from '@ant-design/icons';
import { showError, toast, useTranslation } from '@balcao/plugin-sdk/ui';
import { Button, Flex, Spin, Tooltip, Typography, theme } from 'antd';
import { useEffect, useRef, useState } from 'react';
import type { Channel } from '../../../../shared/types';
import { AUDIO_BITRATE_KBPS, isAudioTooSmall, type RecordingFormat, recordingFormat } from '../../logic/audio';
import { formatDuration } from '../../logic/format';
import { encodeMp3 } from './encode-mp3';

type RecorderState = 'idle' | 'recording' | 'sending';

interface Recording {
  recorder: MediaRecorder;
  stream: MediaStream;
  chunks: Blob[];
  format: RecordingFormat;
}

/** Props of the recorder. */
export interface AudioRecorderProps {
  channel: Channel;
  disabled: boolean;
  /** Sends the finished recording. */
  onRecorded(file: File): Promise<void>;
  /** Tells the composer a recording is under way (its other controls give way to the timer). */
  onActiveChange(active: boolean): void;
}

/**
 * The audio recorder (docs/product/tickets-and-inbox.md#states-and-transitions: idle, recording with a timer, sending): MediaRecorder, mp3 through lamejs
 * for WhatsApp, m4a (or webm where the browser can't record m4a) otherwise, 128 kbps; recordings under
 * 10000 bytes are discarded.
 */
export function AudioRecorder({ channel, disabled, onRecorded, onActiveChange }: AudioRecorderProps) {
  const { t } = useTranslation('inbox');
  const { token } = theme.useToken();
  const [state, setState] = useState<RecorderState>('idle');
  const [seconds, setSeconds] = useState(0);
  const recording = useRef<Recording | null>(null);

  useEffect(() => onActiveChange(state !== 'idle'), [state, onActiveChange]);

  useEffect(() => {
    if (state !== 'recording') return;
    const started = Date.now();
    setSeconds(0);
    const timer = setInterval(() => setSeconds((Date.now() - started) / 1000), 250);
    return () => clearInterval(timer);
  }, [state]);

  // leaving the ticket mid-recording releases the microphone
  useEffect(
    () => () => {
      const current = recording.current;
      if (!current) return;
      if (current.recorder.state !== 'inactive') current.recorder.stop();
      for (const track of current.stream.getTracks()) track.stop();
    },
    [],
  );

  const start = async () => {
    if (typeof MediaRecorder === 'undefined' || !navigator.mediaDevices?.getUserMedia) {
      toast.error(t('tickets.audio.unsupported'));
      return;
    }
    try {
      const stream = await navigator.mediaDevices.getUserMedia({ audio: true });
      const format = recordingFormat(channel, (mime) => MediaRecorder.isTypeSupported(mime));
      const recorder = new MediaRecorder(stream, {
        ...(format.recorderMime ? { mimeType: format.recorderMime } : {}),
        audioBitsPerSecond: AUDIO_BITRATE_KBPS * 1000,
      });
      const chunks: Blob[] = [];
      recorder.addEventListener('dataavailable', (event) => {
        if (event.data.size > 0) chunks.push(event.data);
      });
      recording.current = { recorder, stream, chunks, format };
      recorder.start();
      setState('recording');
    } catch {
      toast.error(t('tickets.audio.noMicrophone'));
    }
  };

  /** Stops the microphone and answers what was recorded. */
  const stop = (): Promise<Recording | null> => {
    const current = recording.current;
    recording.current = null;
    if (!current) return Promise.resolve(null);
    return new Promise((resolve) => {
      current.recorder.addEventListener(
        'stop',
        () => {
          for (const track of current.stream.getTracks()) track.stop();
          resolve(current);
        },
        { once: true },
      );
      current.recorder.stop();
    });
  };

  const cancel = async () => {
    await stop();
    setState('idle');
  };

  const finish = async () => {
    setState('sending');
    try {
      const done = await stop();
      if (!done) return;
      const raw = new Blob(done.chunks, { type: done.recorder.mimeType || done.format.mime });
      const audio = done.format.encode === 'mp3' ? await encodeMp3(raw) : raw;
      if (isAudioTooSmall(audio.size)) {
        toast.info(t('tickets.audio.tooShort'));
        return;
      }
      const file = new File([audio], `audio-${Date.now()}.${done.format.extension}`, { type: done.format.mime });
      await onRecorded(file);
    } catch (error) {
      showError(error);
    } finally {
      setState('idle');
    }
  };

  if (state === 'idle') {
    return (
      <Tooltip title={t('tickets.audio.record')}>
        <Button
          type="text"
          shape="circle"
          icon={<AudioOutlined />}
          aria-label={t('tickets.audio.record')}
          disabled={disabled}
          onClick={() => void start()}
        />
      </Tooltip>
    );
  }

  return (
    <Flex align="center" gap={8}>
      {state === 'sending' ? (
        <Spin size="small" />
      ) : (
        <span
          aria-hidden
          style={{ width: 10, height: 10, borderRadius: 5, background: token.colorError, display: 'inline-block' }}
        />
      )}
      <Typography.Text role="timer" aria-label={t('tickets.audio.elapsed')} style={{ fontVariantNumeric: 'tabular-nums' }}>
        {formatDuration(seconds)}
      </Typography.Text>
      <Button
        type="text"
        shape="circle"
        danger
        icon={<CloseOutlined />}
        aria-label={t('tickets.audio.cancel')}
        disabled={state === 'sending'}
        onClick={() => void cancel()}
      />
      <Button
        type="primary"
        shape="circle"
        icon={<CheckOutlined />}
        aria-label={t('tickets.audio.send')}
        loading={state === 'sending'}
        onClick={() => void finish()}
      />
    </Flex>
  );
}
