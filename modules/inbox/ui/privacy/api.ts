import { API_BASE, type AppDispatch, api, refreshSession, tokens } from '@balcao/plugin-sdk/ui';

/** `GET`/`PUT /privacy/retention`: months messages and media are kept, null for good. */
export interface PrivacyRetention {
  months: number | null;
}

/** `POST /contacts/:id/erase` answer: what was removed. */
export interface ErasureResult {
  contactId: number;
  tickets: number;
  messages: number;
  files: number;
}

/** One line of `GET /privacy/log`. */
export interface PrivacyLogEntry {
  id: number;
  action: 'export' | 'erase' | 'retention';
  contactId: number | null;
  user: { id: number; name: string } | null;
  details: Record<string, unknown>;
  createdAt: string;
}

const privacyApi = api.enhanceEndpoints({ addTagTypes: ['PrivacyRetention', 'PrivacyLog', 'Contact'] }).injectEndpoints({
  endpoints: (build) => ({
    getPrivacyRetention: build.query<PrivacyRetention, void>({
      query: () => '/privacy/retention',
      providesTags: ['PrivacyRetention'],
    }),
    setPrivacyRetention: build.mutation<PrivacyRetention, PrivacyRetention>({
      query: (body) => ({ url: '/privacy/retention', method: 'PUT', body }),
      invalidatesTags: ['PrivacyRetention'],
    }),
    getPrivacyLog: build.query<{ entries: PrivacyLogEntry[] }, void>({
      query: () => '/privacy/log',
      providesTags: ['PrivacyLog'],
    }),
    erasePrivacyContact: build.mutation<ErasureResult, { contactId: number; confirmation: string }>({
      query: ({ contactId, confirmation }) => ({ url: `/contacts/${contactId}/erase`, method: 'POST', body: { confirmation } }),
      // the contact and the lists showing it change (its tickets come back over the socket)
      invalidatesTags: (_result, _error, { contactId }) => [
        'PrivacyLog',
        { type: 'Contact', id: contactId },
        { type: 'Contact', id: 'LIST' },
      ],
    }),
  }),
});

export const {
  useGetPrivacyRetentionQuery,
  useSetPrivacyRetentionMutation,
  useGetPrivacyLogQuery,
  useErasePrivacyContactMutation,
} = privacyApi;

/**
 * Downloads one contact's data (`GET /contacts/:id/export`, a zip the server streams): a bearer
 * token can't ride on a link, so the file is fetched and saved under the server's name.
 */
export async function downloadContactExport(contactId: number, dispatch: AppDispatch): Promise<void> {
  const call = () =>
    fetch(`${API_BASE}/contacts/${contactId}/export`, {
      headers: { authorization: `Bearer ${tokens.read() ?? ''}` },
      credentials: 'include',
    });
  let response = await call();
  // an access token past its life: renew it once, as every other call does
  if (response.status === 403 && (await refreshSession(dispatch))) response = await call();
  if (!response.ok) {
    const body = (await response.json().catch(() => ({}))) as { error?: string };
    throw { data: { error: body.error ?? 'ERR_INTERNAL' }, status: response.status };
  }
  const blob = await response.blob();
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = `contact-${contactId}.zip`;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(link.href), 10_000);
  dispatch(privacyApi.util.invalidateTags(['PrivacyLog']));
}
