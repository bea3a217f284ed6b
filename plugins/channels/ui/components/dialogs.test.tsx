import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { beforeEach, describe, expect, it } from 'vitest';
import { answer, connection, planWith, renderPage, serveApi, signIn } from '../testing/render';
import type { Connection } from '../types';
import { ConnectionEditor } from './ConnectionEditor';
import { type LinkMethod, QrCodeDialog } from './QrCodeDialog';

/**
 * Renders the QR dialog with `first`, as a page holds it; `show` hands it the connection's next state, as
 * the list kept live by the realtime events would (`rerender` would drop the store and router around it).
 */
function renderQrDialog(first: Connection, props: { method?: LinkMethod; onClose?(): void } = {}) {
  let setCurrent: (next: Connection) => void = () => {};
  const onClose = props.onClose ?? (() => {});
  function Live() {
    const [current, set] = useState(first);
    setCurrent = set;
    return <QrCodeDialog connection={current} method={props.method} onClose={onClose} />;
  }
  renderPage(<Live />);
  return { show: (next: Connection) => act(() => setCurrent(next)) };
}

describe('the QR dialog', () => {
  beforeEach(() => signIn());

  it('shows the code it is given, waits without one, and closes once the code was read', async () => {
    let closed = 0;
    const onClose = () => {
      closed += 1;
    };
    serveApi();
    const dialog = renderQrDialog(connection(1, { status: 'qrcode', qrcode: '' }), { onClose });
    expect(await screen.findByText('Aguardando o QR Code...')).toBeTruthy();
    dialog.show(connection(1, { status: 'qrcode', qrcode: '2@abc' }));
    expect(await screen.findByTestId('connection-qrcode')).toBeTruthy();
    expect(closed).toBe(0);
    dialog.show(connection(1, { status: 'CONNECTED', qrcode: '' }));
    await waitFor(() => expect(closed).toBe(1));
  });

  it('links by phone number: checks the number, asks for a code, shows it once it comes, closes once connected', async () => {
    let closed = 0;
    const onClose = () => {
      closed += 1;
    };
    const calls = serveApi(
      answer('POST', '/whatsappsession/1/pairing-code', connection(1, { status: 'OPENING', qrcode: '', number: '' })),
    );
    const dialog = renderQrDialog(connection(1, { status: 'qrcode', qrcode: '2@abc', number: '' }), { onClose });
    fireEvent.click(await screen.findByRole('tab', { name: 'Número de telefone' }));
    expect(await screen.findByText('Conectar com número de telefone')).toBeTruthy();

    const number = screen.getByLabelText('Número do WhatsApp');
    fireEvent.change(number, { target: { value: '+55 119' } });
    fireEvent.click(screen.getByRole('button', { name: 'Gerar código' }));
    expect(await screen.findByText('Informe o número com o código do país: de 8 a 15 dígitos.')).toBeTruthy();
    fireEvent.change(number, { target: { value: '5511999990000123' } });
    fireEvent.click(screen.getByRole('button', { name: 'Gerar código' }));
    await act(() => new Promise((resolve) => setTimeout(resolve, 100)));
    expect(calls).toEqual([]);

    // typed as people write it: the route gets the digits alone
    fireEvent.change(number, { target: { value: '+55 (11) 99999-0000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Gerar código' }));
    expect(await screen.findByText('Gerando o código de pareamento...', {}, { timeout: 5_000 })).toBeTruthy();
    expect(calls.map((call) => `${call.method} ${call.path}`)).toEqual(['POST /whatsappsession/1/pairing-code']);
    expect(calls[0]?.body).toEqual({ number: '5511999990000' });

    dialog.show(connection(1, { status: 'OPENING', number: '' }));
    expect(screen.getByText('Gerando o código de pareamento...')).toBeTruthy();
    dialog.show(connection(1, { status: 'PAIRING', pairingCode: 'K7QW2XPA', number: '' }));
    expect((await screen.findByTestId('pairing-code')).textContent).toContain('K7QW-2XPA');
    expect(screen.getByText('Toque em Conectar com número de telefone e digite o código acima.')).toBeTruthy();
    expect(closed).toBe(0);

    dialog.show(connection(1, { status: 'CONNECTED', number: '5511999990000' }));
    await waitFor(() => expect(closed).toBe(1));
  });

  it('says why the session stopped while waiting, and offers a new QR code', async () => {
    const calls = serveApi(answer('PUT', '/whatsappsession/1', connection(1, { status: 'OPENING' })));
    renderPage(
      <QrCodeDialog connection={connection(1, { status: 'TIMEOUT', sessionError: 'ERR_WAPP_QR_EXPIRED' })} onClose={() => {}} />,
    );
    expect(
      await screen.findByText('Ninguém leu os QR Codes a tempo. Conecte de novo quando estiver com o celular em mãos.'),
    ).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Novo QR Code' }));
    await waitFor(() => expect(calls.map((call) => `${call.method} ${call.path}`)).toEqual(['PUT /whatsappsession/1']));
  });

  it('shows a translated toast when the server refuses the number', async () => {
    serveApi(answer('POST', '/whatsappsession/1/pairing-code', { error: 'ERR_WAPP_PAIRING_NUMBER_INVALID' }, 400));
    renderPage(<QrCodeDialog connection={connection(1, { status: 'qrcode', number: '' })} method="number" onClose={() => {}} />);
    fireEvent.change(await screen.findByLabelText('Número do WhatsApp'), { target: { value: '00000000' } });
    fireEvent.click(screen.getByRole('button', { name: 'Gerar código' }));
    expect(
      await screen.findByText(
        'Número inválido: informe de 8 a 15 dígitos, começando pelo código do país.',
        {},
        { timeout: 5_000 },
      ),
    ).toBeTruthy();
    expect(screen.queryByText('Gerando o código de pareamento...')).toBeNull();
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
