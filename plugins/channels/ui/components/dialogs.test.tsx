import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { answer, connection, planWith, renderPage, serveApi, signIn } from '../test-support';
import { ConnectionEditor } from './ConnectionEditor';
import { QrCodeDialog } from './QrCodeDialog';

describe('the QR dialog', () => {
  beforeEach(() => signIn());

  it('shows the code it is given, waits without one, and closes once the code was read', async () => {
    let closed = 0;
    const onClose = () => {
      closed += 1;
    };
    serveApi();
    const view = renderPage(<QrCodeDialog connection={connection(1, { status: 'qrcode', qrcode: '' })} onClose={onClose} />);
    expect(await screen.findByText('Aguardando o QR Code...')).toBeTruthy();
    view.unmount();
    const next = renderPage(<QrCodeDialog connection={connection(1, { status: 'qrcode', qrcode: '2@abc' })} onClose={onClose} />);
    expect(await screen.findByTestId('connection-qrcode')).toBeTruthy();
    expect(closed).toBe(0);
    next.rerender(<QrCodeDialog connection={connection(1, { status: 'CONNECTED', qrcode: '' })} onClose={onClose} />);
    await waitFor(() => expect(closed).toBe(1));
  });
});

describe('the connection editor', () => {
  beforeEach(() => signIn());

  it('refuses a greeting file that is neither image nor video', async () => {
    serveApi(answer('GET', '/queue', []));
    renderPage(<ConnectionEditor open connectionId={null} channel="webchat" onClose={() => {}} />);
    await screen.findByLabelText('Nome');
    const input = document.querySelector('input[type="file"]') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['%PDF'], 'doc.pdf', { type: 'application/pdf' })] } });
    expect(await screen.findByText('Escolha uma imagem ou um vídeo.', {}, { timeout: 5_000 })).toBeTruthy();
    expect(screen.queryByText('doc.pdf')).toBeNull();
  });

  it('uploads the greeting image after creating the connection', async () => {
    const calls = serveApi(
      answer('GET', '/queue', []),
      answer('GET', '/companies/listPlan/1', planWith(1, [])),
      answer('POST', '/whatsapp', connection(9, { channel: 'webchat' }), 201),
      answer('POST', '/whatsapp/9/media-upload', connection(9, { channel: 'webchat', greetingMediaAttachment: 'oi.png' })),
    );
    renderPage(<ConnectionEditor open connectionId={null} channel="webchat" onClose={() => {}} />);
    fireEvent.change(await screen.findByLabelText('Nome'), { target: { value: 'Site' } });
    const input = document.querySelector('input[type="file"]') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['png'], 'oi.png', { type: 'image/png' })] } });
    expect(await screen.findByText('oi.png')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Conexão salva com sucesso!', {}, { timeout: 5_000 })).toBeTruthy();
    const writes = calls.filter((call) => call.method !== 'GET');
    expect(writes.map((call) => `${call.method} ${call.path}`)).toEqual(['POST /whatsapp', 'POST /whatsapp/9/media-upload']);
    const upload = writes[1]?.body as FormData;
    expect((upload.get('file') as File).name).toBe('oi.png');
  });

  it('refuses a widget origin that is not a bare origin', async () => {
    const calls = serveApi(answer('GET', '/queue', []));
    renderPage(<ConnectionEditor open connectionId={null} channel="webchat" onClose={() => {}} />);
    fireEvent.change(await screen.findByLabelText('Nome'), { target: { value: 'Site' } });
    fireEvent.click(screen.getByRole('tab', { name: 'Widget' }));
    const origins = await screen.findByRole('combobox', { name: 'Sites permitidos' });
    fireEvent.change(origins, { target: { value: 'https://loja.example/pagina' } });
    fireEvent.keyDown(origins, { key: 'Enter', code: 'Enter', keyCode: 13 });
    fireEvent.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(
      await screen.findByText(
        'Cada site permitido deve ser uma origem como https://loja.exemplo (sem caminho).',
        {},
        { timeout: 5_000 },
      ),
    ).toBeTruthy();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
  });
});
