import type { MetaAccount } from './accounts';
import type { MetaContext } from './config';
import { graphOf } from './graph/client';

/** A contact's name and picture as the Graph tells them. */
export interface ContactProfile {
  name: string | null;
  picture: string | null;
}

/** How long a profile is kept: one Graph call a day per contact, not one per message. */
const PROFILE_TTL_MS = 24 * 3_600_000;
/** A profile the Graph would not give is asked again sooner. */
const MISSING_TTL_MS = 3_600_000;

interface GraphProfile {
  first_name?: string;
  last_name?: string;
  name?: string;
  username?: string;
  profile_pic?: string;
}

/**
 * The name and picture of a Messenger or Instagram contact, from the Graph, cached in Redis; null on
 * WhatsApp Cloud (its webhooks carry the name; it has no picture API) or when the Graph doesn't answer.
 */
export async function contactProfile(ctx: MetaContext, account: MetaAccount, personId: string): Promise<ContactProfile | null> {
  if (account.channel === 'whatsappapi') return null;
  const key = `profile:${account.whatsappId}:${personId}`;
  const cached = await ctx.cache.get(key);
  if (cached !== null) return cached === '' ? null : (JSON.parse(cached) as ContactProfile);
  const fields = account.channel === 'instagram' ? 'name,username,profile_pic' : 'first_name,last_name,profile_pic';
  try {
    const answer = await graphOf(ctx).call<GraphProfile>(personId, { token: account.token, query: { fields } });
    const name =
      account.channel === 'instagram'
        ? (answer.name ?? answer.username ?? null)
        : [answer.first_name, answer.last_name].filter(Boolean).join(' ') || null;
    const profile = { name, picture: answer.profile_pic ?? null };
    await ctx.cache.set(key, JSON.stringify(profile), PROFILE_TTL_MS);
    return profile;
  } catch (error) {
    ctx.log.info({ err: error, whatsappId: account.whatsappId }, 'the Graph gave no profile of a contact');
    await ctx.cache.set(key, '', MISSING_TTL_MS);
    return null;
  }
}
