import message from 'antd/es/message';
import notification from 'antd/es/notification';
import { useEffect } from 'react';
import { attachToastHolders } from './feedback';

/**
 * antd's message and notification holders rendered inside the page's React tree, so toasts take the
 * page's theme and language from the nearest ConfigProvider and go away with the tree that shows them.
 * Loaded after the first paint (see `ToastHost`).
 */
export default function ToastHolders() {
  const [messageApi, messageHolder] = message.useMessage();
  const [notificationApi, notificationHolder] = notification.useNotification();
  useEffect(() => attachToastHolders({ message: messageApi, notification: notificationApi }), [messageApi, notificationApi]);
  return (
    <>
      {messageHolder}
      {notificationHolder}
    </>
  );
}
