import type { PluginContext } from '@balcao/plugin-sdk/server';

/** The schedules' realtime channel, spelled as docs/product/automation.md#states-and-transitions names it. */
export const scheduleChannel = (companyId: number) => `company${companyId}-schedule`;

/** Tells the company's screens of a schedule created, changed or deleted (`{ action, schedule | scheduleId }`). */
export function emitSchedule(ctx: PluginContext, companyId: number, payload: unknown): void {
  ctx.realtime.emit(companyId, scheduleChannel(companyId), payload);
}
