import { Skeleton } from 'antd';

/** What the content area shows while a page or its code loads. */
export function ContentSkeleton() {
  return (
    <div data-testid="content-skeleton" style={{ padding: 8 }}>
      <Skeleton active paragraph={{ rows: 6 }} />
    </div>
  );
}
