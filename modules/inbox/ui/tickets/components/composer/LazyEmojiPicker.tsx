import { Flex, Spin } from 'antd';
import { lazy, Suspense } from 'react';
import type { EmojiPickerPanelProps } from './EmojiPickerPanel';

const EmojiPickerPanel = lazy(() => import('./EmojiPickerPanel'));

/** The emoji picker, downloaded the first time it opens. */
export function LazyEmojiPicker(props: EmojiPickerPanelProps) {
  return (
    <Suspense
      fallback={
        <Flex align="center" justify="center" style={{ width: 320, height: props.reactions ? 56 : 380 }}>
          <Spin />
        </Flex>
      }
    >
      <EmojiPickerPanel {...props} />
    </Suspense>
  );
}
