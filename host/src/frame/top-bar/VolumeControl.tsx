import { MutedOutlined, SoundOutlined } from '@ant-design/icons';
import { readVolume, storeVolume } from '@balcao/plugin-sdk/ui';
import { Button, Popover, Slider } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/** The volume popover of the top bar: a 0–1 slider in steps of 0.1, kept on this device. */
export function VolumeControl() {
  const { t } = useTranslation('shell');
  const [volume, setVolume] = useState(readVolume);
  return (
    <Popover
      trigger="click"
      placement="bottom"
      content={
        <div style={{ width: 160 }}>
          <Slider
            min={0}
            max={1}
            step={0.1}
            value={volume}
            onChange={(value) => setVolume(storeVolume(value))}
            ariaLabelForHandle={t('topBar.volume')}
          />
        </div>
      }
    >
      <Button
        type="text"
        shape="circle"
        aria-label={t('topBar.volume')}
        icon={volume === 0 ? <MutedOutlined /> : <SoundOutlined />}
      />
    </Popover>
  );
}
