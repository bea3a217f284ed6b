import { useTranslation } from '@balcao/plugin-sdk/ui';
import { Flex, Tag } from 'antd';
import type { Message } from '../../../../shared/types';
import { groupReactions } from '../../logic/message-list';

/** The reactions under a message, one chip per emoji with its count. */
export function MessageReactions({ message }: { message: Pick<Message, 'reactions'> }) {
  const { t } = useTranslation('inbox');
  const groups = groupReactions(message);
  if (groups.length === 0) return null;
  return (
    <Flex gap={4} wrap style={{ marginTop: 2 }}>
      {groups.map((group) => (
        <Tag
          key={group.type}
          color={group.mine ? 'blue' : undefined}
          style={{ marginInlineEnd: 0, borderRadius: 12 }}
          aria-label={t('tickets.messages.reactionCount', { emoji: group.type, count: group.count })}
        >
          {group.type}
          {group.count > 1 ? ` ${group.count}` : ''}
        </Tag>
      ))}
    </Flex>
  );
}
