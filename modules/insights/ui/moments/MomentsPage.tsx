import { ClockCircleOutlined, UserOutlined } from '@ant-design/icons';
import { usePermission, useSession, useTranslation } from '@balcao/plugin-sdk/ui';
import { Avatar, Badge, Card, Col, Empty, Flex, Row, Skeleton, Tag, Tooltip, Typography, theme } from 'antd';
import { memo, useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import type { MomentTicket, MomentUser } from '../../shared/types';
import { useGetMomentsQuery, useGetMomentUsersQuery } from '../api';
import { AccessDenied } from '../shared/AccessDenied';
import { formatMinutes } from '../shared/format';

const WAITING = new Set(['pending', 'lgpd', 'nps']);

/**
 * A line cut with an ellipsis by CSS alone: antd's measured ellipsis observes every element's size, which
 * costs seconds over the hundreds of tickets a busy panel shows.
 */
const ELLIPSIS = { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' } as const;

/**
 * Moments, the live attendance panel (1-core §2): a Pending card with the tickets waiting, then a card per
 * agent with the tickets they attend — kept live by the company's socket (`company-{id}-moments`, and
 * `company-{id}-user` for online states), never by polling. Admins, and profile users with allowRealTime;
 * a ticket opens at /tickets/{uuid} for admins and for its own agent.
 */
export function MomentsPage() {
  const allowed = usePermission('moments:view');
  return allowed ? <Moments /> : <AccessDenied />;
}

/** Re-renders every 30 s, so "for how long" stays true without asking the server. */
function useNow(everyMs = 30_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}

function Moments() {
  const { t } = useTranslation('insights');
  const tickets = useGetMomentsQuery();
  const users = useGetMomentUsersQuery();
  const now = useNow();

  const { pending, byAgent } = useMemo(() => {
    const waiting: MomentTicket[] = [];
    const attended = new Map<number, MomentTicket[]>();
    for (const ticket of tickets.data ?? []) {
      if (WAITING.has(ticket.status) || ticket.user === null) waiting.push(ticket);
      else attended.set(ticket.user.id, [...(attended.get(ticket.user.id) ?? []), ticket]);
    }
    const bySince = (a: MomentTicket, b: MomentTicket) => a.since.localeCompare(b.since) || a.id - b.id;
    waiting.sort(bySince);
    for (const list of attended.values()) list.sort(bySince);
    return { pending: waiting, byAgent: attended };
  }, [tickets.data]);

  // every agent with tickets, then the others online, then the rest; by name within each
  const agents = useMemo(() => {
    const rank = (user: MomentUser) => ((byAgent.get(user.id)?.length ?? 0) > 0 ? 0 : user.online ? 1 : 2);
    return [...(users.data ?? [])].sort((a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name));
  }, [users.data, byAgent]);

  if (tickets.isLoading || users.isLoading) return <Skeleton active paragraph={{ rows: 10 }} />;
  const cols = { xs: 24, sm: 12, lg: 8, xxl: 6 };
  return (
    <Flex vertical gap={16}>
      <Flex align="center" gap={12}>
        <Typography.Title level={3} style={{ margin: 0 }}>
          {t('moments.title')}
        </Typography.Title>
        <Badge status="processing" text={t('moments.live')} />
      </Flex>
      <Row gutter={[12, 12]}>
        <Col {...cols}>
          <MomentCard
            title={t('moments.pending')}
            subtitle={t('moments.waiting', { count: pending.length })}
            tickets={pending}
            now={now}
            accent="warning"
            testId="moments-pending"
          />
        </Col>
        {agents.map((agent) => {
          const list = byAgent.get(agent.id) ?? [];
          return (
            <Col key={agent.id} {...cols}>
              <MomentCard
                title={agent.name}
                subtitle={t('moments.attending', { count: list.length })}
                online={agent.online}
                tickets={list}
                now={now}
                accent="primary"
                testId={`moments-agent-${agent.id}`}
              />
            </Col>
          );
        })}
      </Row>
    </Flex>
  );
}

function MomentCard({
  title,
  subtitle,
  online,
  tickets,
  now,
  accent,
  testId,
}: {
  title: string;
  subtitle: string;
  online?: boolean;
  tickets: MomentTicket[];
  now: number;
  accent: 'warning' | 'primary';
  testId: string;
}) {
  const { t } = useTranslation('insights');
  const { token } = theme.useToken();
  const session = useSession();
  const navigate = useNavigate();
  const isAdmin = session?.profile === 'admin' || session?.super === true;
  return (
    <Card
      size="small"
      data-testid={testId}
      style={{ height: '100%', borderTop: `3px solid ${accent === 'warning' ? token.colorWarning : token.colorPrimary}` }}
      title={
        <Flex vertical>
          <Flex align="center" gap={8}>
            {online !== undefined && (
              <Tooltip title={online ? t('moments.online') : t('moments.offline')}>
                <Badge status={online ? 'success' : 'default'} />
              </Tooltip>
            )}
            <span style={{ ...ELLIPSIS, fontWeight: 600 }}>{title}</span>
          </Flex>
          <Typography.Text type="secondary" style={{ fontSize: 12, fontWeight: 'normal' }}>
            {subtitle}
          </Typography.Text>
        </Flex>
      }
    >
      {tickets.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('moments.empty')} />
      ) : (
        <ul style={{ maxHeight: 360, overflowY: 'auto', margin: 0, padding: 0, listStyle: 'none' }}>
          {tickets.map((ticket) => (
            <MomentItem
              key={ticket.id}
              ticket={ticket}
              minute={Math.floor(now / 60_000)}
              mayOpen={isAdmin || ticket.user?.id === session?.id}
              onOpen={navigate}
              border={token.colorSplit}
            />
          ))}
        </ul>
      )}
    </Card>
  );
}

/**
 * One ticket of a card, as plain elements and memoised: a change of one ticket re-renders its row only (the
 * cache keeps every other ticket object as it was), not the hundreds of a busy panel.
 */
const MomentItem = memo(function MomentItem({
  ticket,
  minute,
  mayOpen,
  onOpen,
  border,
}: {
  ticket: MomentTicket;
  minute: number;
  mayOpen: boolean;
  onOpen(path: string): void;
  border: string;
}) {
  const { t } = useTranslation('insights');
  const minutes = Math.max(0, minute - Date.parse(ticket.since) / 60_000);
  return (
    <li
      data-testid={`moment-ticket-${ticket.id}`}
      style={{
        display: 'flex',
        gap: 12,
        alignItems: 'center',
        padding: '8px 4px',
        borderBottom: `1px solid ${border}`,
        cursor: mayOpen ? 'pointer' : 'default',
      }}
      onClick={mayOpen ? () => onOpen(`/tickets/${ticket.uuid}`) : undefined}
      onKeyDown={mayOpen ? (event) => event.key === 'Enter' && onOpen(`/tickets/${ticket.uuid}`) : undefined}
      tabIndex={mayOpen ? 0 : undefined}
      title={mayOpen ? t('moments.open') : t('moments.notYours')}
    >
      {/* an icon, not the initial: antd measures an avatar's text, hundreds of times on a busy panel */}
      <Avatar src={ticket.contact.urlPicture ?? undefined} icon={<UserOutlined />} />
      <div style={{ minWidth: 0, flex: 1 }}>
        <div style={{ ...ELLIPSIS, fontWeight: 500 }}>{ticket.contact.name}</div>
        <Flex gap={4} wrap align="center">
          {ticket.queue ? (
            <Tag color={ticket.queue.color} style={{ marginInlineEnd: 0 }}>
              {ticket.queue.name}
            </Tag>
          ) : (
            <Tag style={{ marginInlineEnd: 0 }}>{t('moments.noQueue')}</Tag>
          )}
          {ticket.status !== 'open' && <Tag style={{ marginInlineEnd: 0 }}>{t(`moments.statuses.${ticket.status}`)}</Tag>}
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            <ClockCircleOutlined /> {t('moments.since', { time: formatMinutes(t, minutes) })}
          </Typography.Text>
        </Flex>
      </div>
    </li>
  );
});
