import { describe, expect, it } from 'vitest';
import { checkFlow, FLOW_DOCUMENT_MAX_BYTES, type FlowDocument, interpolate, nextNodeId } from '../../shared/flow-document';

const at = { x: 0, y: 0 };
/** A flow that greets, asks for a name, offers a menu and hands the ticket to a queue. */
function goodFlow(): FlowDocument {
  return {
    nodes: [
      { id: '1', type: 'start', position: at, data: { label: 'Inicio do fluxo' } },
      { id: 'ask', type: 'question', position: at, data: { typebotIntegration: { message: 'Seu nome?', answerKey: 'nome' } } },
      {
        id: 'menu',
        type: 'menu',
        position: at,
        data: {
          message: 'Olá {{nome}}',
          arrayOption: [
            { number: 1, value: 'Vendas' },
            { number: 2, value: 'Suporte' },
          ],
        },
      },
      { id: 'wait', type: 'interval', position: at, data: { label: 'Intervalo 2 seg.', sec: 2 } },
      { id: 'queue', type: 'ticket', position: at, data: { data: { id: 7, name: 'Vendas' } } },
      { id: 'bye', type: 'message', position: at, data: { label: 'Até logo' } },
    ],
    connections: [
      { source: '1', target: 'ask' },
      { source: 'ask', target: 'menu' },
      { source: 'menu', target: 'wait', sourceHandle: 'a1' },
      { source: 'menu', target: 'bye', sourceHandle: 'a2' },
      { source: 'wait', target: 'queue' },
    ],
  };
}

describe('checkFlow', () => {
  it('finds nothing wrong in a sound flow, and walks it by its handles', () => {
    const flow = goodFlow();
    expect(checkFlow(flow)).toEqual([]);
    expect(nextNodeId(flow, 'menu', 'a2')).toBe('bye');
    expect(nextNodeId(flow, 'bye')).toBeNull();
    expect(interpolate('Olá {{ nome }}, {{x}}', { nome: 'Ana' })).toBe('Olá Ana, {{x}}');
  });

  it('names the node of each problem: kinds, data, edges, ways out, unused answers, size', () => {
    const flow = goodFlow();
    flow.nodes.push(
      { id: 'bad', type: 'nope', position: at, data: {} } as never,
      { id: 'long', type: 'interval', position: at, data: { sec: 121 } },
      { id: 'q2', type: 'question', position: at, data: { typebotIntegration: { message: 'Idade?', answerKey: 'idade' } } },
      { id: 'ai', type: 'openai', position: at, data: { typebotIntegration: { name: 'x', apiKey: 'k', prompt: 'p' } } },
    );
    flow.connections.push(
      { source: 'queue', target: 'ghost' },
      { source: 'bye', target: 'long' },
      { source: 'long', target: 'q2' },
    );
    flow.connections = flow.connections.filter((edge) => edge.sourceHandle !== 'a1');
    const problems = checkFlow(flow, { openaiAvailable: false }).map((p) => [p.nodeId, p.code, p.severity]);
    expect(problems).toEqual(
      expect.arrayContaining([
        ['bad', 'unknownKind', 'error'],
        ['long', 'intervalTooLong', 'error'],
        ['queue', 'edgeUnknownNode', 'error'],
        ['ai', 'openaiUnavailable', 'error'],
        ['menu', 'menuOptionLeadsNowhere', 'warning'],
        ['q2', 'noWayOut', 'warning'],
        ['q2', 'variableNeverUsed', 'warning'],
        ['ai', 'unreachable', 'warning'],
      ]),
    );
    expect(problems.findIndex((p) => p[2] === 'warning')).toBeGreaterThan(problems.findLastIndex((p) => p[2] === 'error'));
    const huge = goodFlow();
    (huge.nodes[5] as { data: { label: string } }).data.label = 'x'.repeat(FLOW_DOCUMENT_MAX_BYTES);
    expect(checkFlow(huge)).toEqual([expect.objectContaining({ nodeId: null, code: 'tooLarge' })]);
    expect(checkFlow({ nodes: 'x' })[0]?.code).toBe('notADocument');
  });
});
