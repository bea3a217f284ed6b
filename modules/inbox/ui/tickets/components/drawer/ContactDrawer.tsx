import { EditOutlined } from '@ant-design/icons';
import { PluginSlot, useTranslation } from '@balcao/plugin-sdk/ui';
import { Button, Descriptions, Divider, Drawer, Empty, Flex, Skeleton, Typography } from 'antd';
import { useState } from 'react';
import type { Ticket } from '../../../../shared/types';
import { useGetContactQuery } from '../../../directory/api/contacts';
import { ContactAvatar } from '../ContactAvatar';
import { ContactFormModal } from '../modals/ContactFormModal';
import { ContactTagsEditor } from './ContactTagsEditor';
import { TicketNotes } from './TicketNotes';

/** docs/product/tickets-and-inbox.md#screens-and-routes: the contact drawer is 320 px wide. */
export const CONTACT_DRAWER_WIDTH = 320;

/** Props of the drawer. */
export interface ContactDrawerProps {
  ticket: Ticket;
  open: boolean;
  onClose(): void;
}

/**
 * The contact drawer of the ticket view (docs/product/tickets-and-inbox.md#screens-and-routes): details, extra
 * fields, the sections features add through the `contactDrawer` slot, tags and notes.
 */
export function ContactDrawer({ ticket, open, onClose }: ContactDrawerProps) {
  const { t } = useTranslation('inbox');
  const [editing, setEditing] = useState(false);
  const { data: contact, isLoading, isError } = useGetContactQuery(ticket.contactId, { skip: !open });

  return (
    <Drawer
      open={open}
      onClose={onClose}
      placement="right"
      size={CONTACT_DRAWER_WIDTH}
      getContainer={false}
      title={t('tickets.drawer.title')}
      styles={{ body: { padding: 16 } }}
    >
      {isLoading ? (
        <Skeleton active avatar paragraph={{ rows: 6 }} />
      ) : isError || !contact ? (
        <Empty description={t('tickets.drawer.loadError')} />
      ) : (
        <Flex vertical gap={12}>
          <Flex vertical align="center" gap={6}>
            <ContactAvatar name={contact.name} url={contact.urlPicture} size={96} />
            <Typography.Title level={5} style={{ margin: 0, textAlign: 'center' }}>
              {contact.name}
            </Typography.Title>
            {contact.number ? <Typography.Text copyable>{contact.number}</Typography.Text> : null}
            {contact.email ? (
              <Typography.Link href={`mailto:${contact.email}`} ellipsis>
                {contact.email}
              </Typography.Link>
            ) : null}
            <Button icon={<EditOutlined />} onClick={() => setEditing(true)}>
              {t('tickets.drawer.edit')}
            </Button>
          </Flex>
          {contact.extraInfo.length > 0 ? (
            <>
              <Divider plain style={{ margin: '4px 0' }}>
                {t('tickets.drawer.extraInfo')}
              </Divider>
              <Descriptions
                size="small"
                column={1}
                items={contact.extraInfo.map((field, index) => ({
                  key: field.id ?? `${field.name}-${index}`,
                  label: field.name,
                  children: field.value,
                }))}
              />
            </>
          ) : null}
          <PluginSlot name="contactDrawer" props={{ contact, ticket }} />
          <Divider plain style={{ margin: '4px 0' }}>
            {t('tickets.drawer.tags')}
          </Divider>
          <ContactTagsEditor contact={contact} />
          <Divider plain style={{ margin: '4px 0' }}>
            {t('tickets.drawer.notes')}
          </Divider>
          <TicketNotes ticket={ticket} />
          <ContactFormModal open={editing} contact={contact} onClose={() => setEditing(false)} />
        </Flex>
      )}
    </Drawer>
  );
}
