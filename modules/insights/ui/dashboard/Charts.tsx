import { useTranslation } from '@balcao/plugin-sdk/ui';
import { Empty, theme } from 'antd';
import { Bar, BarChart, CartesianGrid, Cell, Legend, Pie, PieChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { TicketsDayPoint } from '../../shared/types';
import { formatDay } from '../shared/format';

/**
 * The dashboard's charts, drawn by recharts (its own chunk: loaded with the dashboard, never on the login
 * path). Colours come from the antd theme, so they follow light and dark.
 */

const HEIGHT = 280;

/** Tickets started and closed per day (or per hour, for a single day). */
export function TicketsPerDayChart({ data }: { data: TicketsDayPoint[] }) {
  const { t } = useTranslation('insights');
  const { token } = theme.useToken();
  if (data.every((point) => point.total === 0 && point.finished === 0)) {
    return <Empty description={t('dashboard.charts.empty')} />;
  }
  const rows = data.map((point) => ({
    label: point.date ? formatDay(point.date).slice(0, 5) : t('dashboard.charts.hour', { hour: point.hour }),
    started: point.total,
    finished: point.finished,
  }));
  return (
    <ResponsiveContainer width="100%" height={HEIGHT}>
      <BarChart data={rows} margin={{ top: 8, right: 8, left: -16, bottom: 0 }}>
        <CartesianGrid strokeDasharray="3 3" stroke={token.colorSplit} />
        <XAxis dataKey="label" tick={{ fill: token.colorTextSecondary, fontSize: 12 }} minTickGap={8} />
        <YAxis allowDecimals={false} tick={{ fill: token.colorTextSecondary, fontSize: 12 }} />
        <Tooltip contentStyle={{ background: token.colorBgElevated, border: `1px solid ${token.colorBorder}` }} />
        <Legend />
        <Bar dataKey="started" name={t('dashboard.charts.started')} fill={token.colorPrimary} radius={[3, 3, 0, 0]} />
        <Bar dataKey="finished" name={t('dashboard.charts.finished')} fill={token.colorSuccess} radius={[3, 3, 0, 0]} />
      </BarChart>
    </ResponsiveContainer>
  );
}

/** Tickets each agent closed, as horizontal bars. */
export function TicketsPerUserChart({ data }: { data: Array<{ name: string; tickets: number }> }) {
  const { t } = useTranslation('insights');
  const { token } = theme.useToken();
  if (data.length === 0) return <Empty description={t('dashboard.charts.empty')} />;
  return (
    <ResponsiveContainer width="100%" height={Math.max(HEIGHT, data.length * 28)}>
      <BarChart data={data} layout="vertical" margin={{ top: 8, right: 16, left: 8, bottom: 0 }}>
        <CartesianGrid strokeDasharray="3 3" stroke={token.colorSplit} />
        <XAxis type="number" allowDecimals={false} tick={{ fill: token.colorTextSecondary, fontSize: 12 }} />
        <YAxis type="category" dataKey="name" width={110} tick={{ fill: token.colorTextSecondary, fontSize: 12 }} />
        <Tooltip contentStyle={{ background: token.colorBgElevated, border: `1px solid ${token.colorBorder}` }} />
        <Bar dataKey="tickets" name={t('dashboard.charts.finished')} fill={token.colorPrimary} radius={[0, 3, 3, 0]} />
      </BarChart>
    </ResponsiveContainer>
  );
}

/** The NPS from −100 to 100 as a half gauge, with the score in its middle. */
export function NpsGauge({ score, empty }: { score: number; empty: boolean }) {
  const { t } = useTranslation('insights');
  const { token } = theme.useToken();
  const color = score >= 50 ? token.colorSuccess : score >= 0 ? token.colorWarning : token.colorError;
  const filled = empty ? 0 : (score + 100) / 2;
  return (
    <div
      style={{ position: 'relative', width: '100%', height: 180 }}
      role="img"
      aria-label={`${t('dashboard.nps.score')} ${score}`}
    >
      <ResponsiveContainer width="100%" height={180}>
        <PieChart>
          <Pie
            data={[{ value: filled }, { value: 100 - filled }]}
            dataKey="value"
            startAngle={180}
            endAngle={0}
            cy="85%"
            innerRadius="70%"
            outerRadius="100%"
            stroke="none"
            isAnimationActive={false}
          >
            <Cell fill={color} />
            <Cell fill={token.colorFillSecondary} />
          </Pie>
        </PieChart>
      </ResponsiveContainer>
      <div style={{ position: 'absolute', left: 0, right: 0, bottom: 16, textAlign: 'center' }}>
        <div style={{ fontSize: 32, fontWeight: 600, color: empty ? token.colorTextTertiary : color }}>{empty ? '–' : score}</div>
        <div style={{ color: token.colorTextSecondary }}>{t('dashboard.nps.score')}</div>
      </div>
    </div>
  );
}

/** How many ratings of each note 0–10, coloured by NPS band. */
export function NpsDistributionChart({ distribution }: { distribution: number[] }) {
  const { t } = useTranslation('insights');
  const { token } = theme.useToken();
  const rows = distribution.map((count, note) => ({ note: String(note), count }));
  const colorOf = (note: number) => (note >= 9 ? token.colorSuccess : note >= 7 ? token.colorWarning : token.colorError);
  return (
    <ResponsiveContainer width="100%" height={HEIGHT}>
      <BarChart data={rows} margin={{ top: 8, right: 8, left: -16, bottom: 0 }}>
        <CartesianGrid strokeDasharray="3 3" stroke={token.colorSplit} />
        <XAxis dataKey="note" tick={{ fill: token.colorTextSecondary, fontSize: 12 }} />
        <YAxis allowDecimals={false} tick={{ fill: token.colorTextSecondary, fontSize: 12 }} />
        <Tooltip
          labelFormatter={(note) => t('dashboard.nps.note', { note })}
          contentStyle={{ background: token.colorBgElevated, border: `1px solid ${token.colorBorder}` }}
        />
        <Bar dataKey="count" name={t('dashboard.nps.count')} radius={[3, 3, 0, 0]}>
          {rows.map((row) => (
            <Cell key={row.note} fill={colorOf(Number(row.note))} />
          ))}
        </Bar>
      </BarChart>
    </ResponsiveContainer>
  );
}
