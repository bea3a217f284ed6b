import { companyEvent, definePlugin, runInTenant } from '@balcao/plugin-sdk/server';
import { __CAMEL__Errors } from './errors';
import { Note } from './models/note';

// the plugin's own event, declared once here by declaration merging
declare module '@balcao/plugin-sdk/server' {
  interface BalcaoEvents {
    '__ID__.noteReviewed': { companyId: number; noteId: number };
  }
}

/** __TITLE__: a plan-gated plugin (flag __FLAG__) with notes, a background review and live updates. */
export default definePlugin({
  id: '__ID__',
  errors: __CAMEL__Errors,
  permissions: { '__ID__:write': ['admin'] },
  jobs: {
    // a note is reviewed after it is written; the job runs in the note's company scope
    review: {
      async handler(data, ctx, { companyId }) {
        const noteId = Number(data.noteId);
        const changed = await Note.query().patch({ reviewed: true }).where('id', noteId);
        if (changed > 0 && companyId !== null) await ctx.events.publish('__ID__.noteReviewed', { companyId, noteId });
      },
    },
  },
  on: {
    // tells the company's open screens, which patch their list (ui/api.ts)
    '__ID__.noteReviewed': async ({ companyId, noteId }, ctx) => {
      const note = await Note.query().findById(noteId);
      if (note)
        ctx.realtime.emit(companyId, companyEvent(companyId, '__ID__'), {
          action: 'update',
          note: { id: note.id, text: note.text, reviewed: note.reviewed },
        });
    },
  },
  seed: {
    // rows of company A for the SDK's walkers (server/plugin.test.ts), the marker in a text column
    async fixtures({ companyA, marker }) {
      const note = await runInTenant({ companyId: companyA.id }, () => Note.query().insert({ text: `note ${marker}` }));
      return { __CAMEL__Note: note.id };
    },
  },
});
