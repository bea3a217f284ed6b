import {
  type ComponentSlotProps,
  companyEvent,
  type SlotTicket,
  showError,
  subscribeSocketEvent,
  useSession,
  useTranslation,
} from '@balcao/plugin-sdk/ui';
import { Divider, Select } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useKanbanAddLaneMutation, useKanbanLanesQuery, useKanbanRemoveLaneMutation } from '../api';

/**
 * The kanban's section of the inbox's contact drawer (the `contactDrawer` slot): the ticket's lane,
 * docs/product/tickets-and-inbox.md#screens-and-routes "kanban tag". Without a ticket (a contact opened on its
 * own) there is no lane to show.
 */
export default function LaneField({ ticket }: ComponentSlotProps['contactDrawer']) {
  const { t } = useTranslation('kanban');
  if (!ticket) return null;
  return (
    <>
      <Divider plain style={{ margin: '4px 0' }}>
        {t('drawer.lane')}
      </Divider>
      <LaneSelect ticket={ticket} />
    </>
  );
}

/**
 * One of the company's lanes, or none. Moving takes the ticket out of its lanes first, then into the chosen
 * one (docs/product/administration.md#states-and-transitions, as the board moves); the ticket's event brings
 * its new tags back to the inbox, which hands them to this select.
 */
export function LaneSelect({ ticket }: { ticket: SlotTicket }) {
  const { t } = useTranslation('kanban');
  const companyId = useSession()?.companyId;
  // read again on each opening of the drawer, and whenever a tag changes (lanes are kanban tags, changed on
  // the Tags and Kanban pages)
  const { data: lanes = [], isLoading, refetch } = useKanbanLanesQuery(undefined, { refetchOnMountOrArgChange: true });
  useEffect(() => {
    if (companyId === undefined) return;
    // the inbox emits the tag channel under both documented spellings, as the board follows it
    const stops = [companyEvent(companyId, 'tag'), `company${companyId}-tag`].map((event) =>
      subscribeSocketEvent(event, () => void refetch()),
    );
    return () => {
      for (const stop of stops) stop();
    };
  }, [companyId, refetch]);
  const [removeLane] = useKanbanRemoveLaneMutation();
  const [addLane] = useKanbanAddLaneMutation();
  const [saving, setSaving] = useState(false);
  const current = useMemo(() => {
    const laneIds = new Set(lanes.map((lane) => lane.id));
    return ticket.tags.find((tag) => laneIds.has(tag.id))?.id;
  }, [lanes, ticket.tags]);

  const move = async (laneId: number | undefined) => {
    setSaving(true);
    try {
      await removeLane(ticket.id).unwrap();
      if (laneId !== undefined) await addLane({ ticketId: ticket.id, laneId }).unwrap();
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
      placeholder={t('drawer.noLane')}
      aria-label={t('drawer.lane')}
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
