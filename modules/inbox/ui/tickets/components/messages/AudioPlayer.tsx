import { useTranslation } from '@balcao/plugin-sdk/ui';
import { Button, Flex } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { isIOSDevice, nextPlaybackRate, playableAudioUrl, readPlaybackRate, storePlaybackRate } from '../../logic/audio';

/** An audio message (docs/product/tickets-and-inbox.md#constants-and-limits): the player with a rate button cycling 0.5×, 1×, 1.5×, 2×, kept on this device. */
export function AudioPlayer({ url }: { url: string }) {
  const { t } = useTranslation('inbox');
  const audioRef = useRef<HTMLAudioElement>(null);
  const [rate, setRate] = useState(readPlaybackRate);

  useEffect(() => {
    if (audioRef.current) audioRef.current.playbackRate = rate;
  }, [rate]);

  const cycle = () => {
    const next = nextPlaybackRate(rate);
    storePlaybackRate(next);
    setRate(next);
  };

  return (
    <Flex align="center" gap={6} style={{ maxWidth: '100%' }}>
      {/* biome-ignore lint/a11y/useMediaCaption: voice messages come without captions */}
      <audio
        ref={audioRef}
        controls
        preload="metadata"
        src={playableAudioUrl(url, isIOSDevice())}
        // some browsers reset the rate when the media loads
        onLoadedMetadata={(event) => {
          event.currentTarget.playbackRate = rate;
        }}
        style={{ maxWidth: 260, height: 40 }}
      />
      <Button size="small" shape="round" onClick={cycle} aria-label={t('tickets.messages.playbackRate', { rate })}>
        {rate}×
      </Button>
    </Flex>
  );
}
