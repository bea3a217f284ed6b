import type { Knex } from 'knex';

/*
 * The auth state's rows without Baileys: what a process that runs no session needs (a connection being
 * stopped or removed from any process). auth-state.ts, which loads Baileys, re-exports these.
 */

/** Whether the connection has stored creds (it paired, or at least started pairing, once). */
export async function hasCreds(knex: Knex | Knex.Transaction, connectionId: number): Promise<boolean> {
  const { rows } = await knex.raw('SELECT EXISTS (SELECT 1 FROM whatsapp_auth_creds WHERE whatsapp_id = ?) AS has', [
    connectionId,
  ]);
  return (rows[0] as { has: boolean }).has;
}

/**
 * Deletes a connection's creds and keys without holding its lease (the connection is being removed). The
 * lease, if any, is revoked in the same transaction — its epoch moves on and it expires — after the holder's
 * fenced writes in flight commit: a process still running the session can't write the secrets back, and its
 * next renewal or write reports the lease lost ('superseded').
 */
export async function deleteAuthState(knex: Knex | Knex.Transaction, connectionId: number): Promise<void> {
  await knex.transaction(async (trx) => {
    await trx.raw(
      `UPDATE whatsapp_session_leases
       SET epoch = epoch + 1, expires_at = least(expires_at, clock_timestamp()), updated_at = clock_timestamp()
       WHERE whatsapp_id = ?`,
      [connectionId],
    );
    await trx.raw('DELETE FROM whatsapp_auth_creds WHERE whatsapp_id = ?', [connectionId]);
    await trx.raw('DELETE FROM whatsapp_auth_keys WHERE whatsapp_id = ?', [connectionId]);
  });
}
