import { useTranslation } from '@balcao/plugin-sdk/ui';
import { Flex, Progress, Typography } from 'antd';
import { formatDay } from '../format';
import type { ImportProgress } from '../types';

/**
 * A connection's message import under way (docs/product/administration.md#states-and-transitions, `importMessages-{companyId}` update): a bar
 * and "Importing 120 of 500 messages — until 12/03/2026" (the date of the last message imported). The total
 * grows while WhatsApp sends the history in batches, so the bar may step back a little.
 */
export function ImportProgressNote({ progress }: { progress: ImportProgress | undefined }) {
  const { t, i18n } = useTranslation('channels');
  if (!progress) return null;
  const total = Math.max(progress.all, progress.this);
  const count = (value: number) => value.toLocaleString(i18n.language);
  const text =
    total === 0
      ? t('import.starting')
      : progress.date
        ? t('import.progressUntil', { done: count(progress.this), total: count(total), date: formatDay(progress.date) })
        : t('import.progress', { done: count(progress.this), total: count(total) });
  return (
    <Flex vertical gap={0} style={{ minWidth: 160, maxWidth: 260 }} data-testid="import-progress">
      <Progress
        size="small"
        status="active"
        percent={total === 0 ? 0 : Math.floor((progress.this / total) * 100)}
        aria-label={text}
      />
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {text}
      </Typography.Text>
    </Flex>
  );
}
