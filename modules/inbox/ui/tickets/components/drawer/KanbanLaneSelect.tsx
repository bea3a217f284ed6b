import { showError, useTranslation } from '@balcao/plugin-sdk/ui';
import { Select } from 'antd';
import { useMemo, useState } from 'react';
import type { Ticket } from '../../../../shared/types';
import { useListTagsQuery } from '../../../directory/api/tags';
import { useAddTicketTagMutation, useClearTicketLanesMutation } from '../../api/ticket-tags';

/**
 * The ticket's kanban lane (docs/product/tickets-and-inbox.md#screens-and-routes contact drawer: kanban tag): one of the company's lane tags, or none.
 * Moving takes the ticket out of its lanes first, then into the chosen one.
 */
export function KanbanLaneSelect({ ticket }: { ticket: Ticket }) {
  const { t } = useTranslation('inbox');
  // the whole list, filtered here: one cache entry shared with the list filters and the tags editor
  const { data: allTags, isLoading } = useListTagsQuery(undefined);
  const lanes = useMemo(() => (allTags ?? []).filter((tag) => tag.kanban === 1), [allTags]);
  const [clearLanes] = useClearTicketLanesMutation();
  const [addTag] = useAddTicketTagMutation();
  const [saving, setSaving] = useState(false);
  const laneIds = new Set(lanes.map((lane) => lane.id));
  const current = ticket.tags.find((tag) => laneIds.has(tag.id))?.id;

  const move = async (laneId: number | undefined) => {
    setSaving(true);
    try {
      await clearLanes(ticket.id).unwrap();
      if (laneId !== undefined) await addTag({ ticketId: ticket.id, tagId: laneId }).unwrap();
    } catch (error) {
      showError(error);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Select
      style={{ width: '100%' }}
      allowClear
      loading={isLoading || saving}
      disabled={saving}
      value={current}
      placeholder={t('tickets.drawer.kanbanPlaceholder')}
      aria-label={t('tickets.drawer.kanban')}
      options={lanes.map((lane) => ({
        value: lane.id,
        label: (
          <span>
            <span
              aria-hidden
              style={{
                display: 'inline-block',
                width: 8,
                height: 8,
                borderRadius: 4,
                background: lane.color,
                marginInlineEnd: 6,
              }}
            />
            {lane.name}
          </span>
        ),
      }))}
      onChange={(laneId?: number) => void move(laneId)}
    />
  );
}
