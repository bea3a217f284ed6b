import { describe, expect, it } from 'vitest';
import { fillMessageVariables, greetingForHour, messageVariables, ticketProtocol } from '../../shared/message-variables';

/** The message variables of docs/product/tickets-and-inbox.md#constants-and-limits. */
describe('message variables', () => {
  const now = new Date(2024, 2, 5, 9, 7, 0);
  const source = {
    contact: { name: 'Maria  Aparecida Souza' },
    user: { name: 'Ana' },
    ticket: { id: 42, createdAt: new Date(2024, 2, 4, 18, 30, 5) },
    queue: { name: 'Vendas' },
    connection: { name: 'Loja' },
    now,
  };

  it('fills every variable', () => {
    const text =
      '{{ms}}, {{firstName}} ({{name}})! {{userName}} da fila {{queue}} via {{connection}}: protocolo {{protocol}}, ticket {{ticket_id}}, {{date}} {{hour}}';
    expect(fillMessageVariables(text, source)).toBe(
      'Bom dia, Maria (Maria  Aparecida Souza)! Ana da fila Vendas via Loja: protocolo 2024030418300542, ticket 42, 05/03/2024 09:07',
    );
  });

  it('greets by the hour', () => {
    expect([0, 4, 5, 11, 12, 17, 18, 23].map(greetingForHour)).toEqual([
      'Boa noite',
      'Boa noite',
      'Bom dia',
      'Bom dia',
      'Boa tarde',
      'Boa tarde',
      'Boa noite',
      'Boa noite',
    ]);
  });

  it('tolerates spaces in the braces, leaves unknown names and fills missing parts as empty', () => {
    expect(fillMessageVariables('{{ name }} {{unknown}} {{queue}}|', { contact: { name: 'Zé' }, now })).toBe('Zé {{unknown}} |');
    expect(messageVariables({ now }).firstName).toBe('');
  });

  it('keeps the protocol stable for a ticket', () => {
    const ticket = { id: 7, createdAt: '2024-01-02T03:04:05Z' };
    expect(ticketProtocol(ticket)).toBe(ticketProtocol(ticket));
    expect(ticketProtocol(ticket).endsWith('7')).toBe(true);
  });
});
