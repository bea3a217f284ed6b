import { API_BASE, tokens } from '@balcao/plugin-sdk/ui';

/** Downloads the example sheet of the contact lists page (the bearer token can't ride on a link). */
export async function downloadExampleSheet(): Promise<void> {
  const response = await fetch(`${API_BASE}/contact-lists/example-sheet`, {
    headers: { authorization: `Bearer ${tokens.read() ?? ''}` },
    credentials: 'include',
  });
  if (!response.ok) throw (await response.json().catch(() => ({}))) as unknown;
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = 'planilha-exemplo.xlsx';
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
