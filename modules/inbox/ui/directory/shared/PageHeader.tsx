import { SearchOutlined } from '@ant-design/icons';
import { Flex, Input, Typography } from 'antd';
import type { ReactNode } from 'react';

export interface PageHeaderProps {
  title: ReactNode;
  search: string;
  onSearch(value: string): void;
  searchPlaceholder: string;
  /** Buttons at the right (they wrap under the title on narrow screens). */
  actions?: ReactNode;
}

/** Title, search box and action buttons of a directory page. */
export function PageHeader({ title, search, onSearch, searchPlaceholder, actions }: PageHeaderProps) {
  return (
    <Flex wrap gap={8} align="center" justify="space-between" style={{ marginBottom: 12 }}>
      <Typography.Title level={4} style={{ margin: 0 }}>
        {title}
      </Typography.Title>
      <Flex wrap gap={8} align="center" style={{ flex: '1 1 280px', justifyContent: 'flex-end' }}>
        <Input
          allowClear
          value={search}
          onChange={(event) => onSearch(event.target.value)}
          placeholder={searchPlaceholder}
          prefix={<SearchOutlined />}
          style={{ flex: '1 1 180px', maxWidth: 320 }}
          aria-label={searchPlaceholder}
        />
        {actions}
      </Flex>
    </Flex>
  );
}
