import { ArrowLeftOutlined } from '@ant-design/icons';
import { errorCodeOf, formatDate, skipToken, useTranslation } from '@balcao/plugin-sdk/ui';
import { Background, Controls, type Edge, MiniMap, ReactFlow, ReactFlowProvider, useReactFlow } from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { Button, Card, Descriptions, Empty, Flex, List, Result, Skeleton, Space, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useFlowDocumentQuery, useFlowRunQuery } from '../api';
import { IntegrationsGuard } from '../components/common';
import { useWideEnough } from '../components/screen';
import { edgesOf, nodesOf } from '../flows/convert';
import type { NodeKind } from '../flows/model';
import { type CanvasNode, FIT_VIEW, KIND_LOOK, NODE_TYPES, type NodeActions, NodeActionsContext } from '../flows/nodes';
import type { FlowRunStep } from '../types';

/** The path one ticket took through its flow (/flowbuilder/runs/{ticketId}), on a read-only canvas. */
export function FlowReplayPage() {
  const { ticketId } = useParams();
  return (
    <IntegrationsGuard>
      <ReactFlowProvider>
        <FlowReplay ticketId={Number(ticketId)} />
      </ReactFlowProvider>
    </IntegrationsGuard>
  );
}

const PATH_EDGE_STYLE = { stroke: '#52c41a', strokeWidth: 3 };

function FlowReplay({ ticketId }: { ticketId: number }) {
  const { t } = useTranslation('flowbuilder');
  const navigate = useNavigate();
  const wide = useWideEnough();
  const flow = useReactFlow<CanvasNode, Edge>();
  const valid = Number.isInteger(ticketId) && ticketId > 0;
  const run = useFlowRunQuery(valid ? ticketId : skipToken);
  const document = useFlowDocumentQuery(run.data?.flowId ? run.data.flowId : skipToken);
  const [selected, setSelected] = useState<number | null>(null);
  const steps = run.data?.steps ?? [];

  const nodes = useMemo(() => nodesOf(document.data?.flow?.nodes ?? []), [document.data]);
  // the edges walked: each step's node to the next step's, whichever handle it left by
  const edges = useMemo(() => {
    const walked = new Set<string>();
    for (let i = 1; i < steps.length; i += 1) walked.add(`${steps[i - 1]?.nodeId}>${steps[i]?.nodeId}`);
    return edgesOf(document.data?.flow?.connections ?? []).map((edge) =>
      walked.has(`${edge.source}>${edge.target}`) ? { ...edge, animated: true, style: PATH_EDGE_STYLE } : edge,
    );
  }, [document.data, steps]);
  const actions = useMemo<NodeActions>(
    () => ({
      readOnly: true,
      duplicate() {},
      remove() {},
      visited: new Set(steps.map((step) => step.nodeId)),
      current: selected === null ? steps[steps.length - 1]?.nodeId : steps[selected]?.nodeId,
    }),
    [steps, selected],
  );

  const show = (index: number, step: FlowRunStep) => {
    setSelected(index);
    const node = nodes.find((item) => item.id === step.nodeId);
    if (node) void flow.setCenter(node.position.x + 110, node.position.y + 40, { zoom: 1.1, duration: 300 });
  };
  const kindOf = (nodeId: string) => nodes.find((node) => node.id === nodeId)?.type as NodeKind | undefined;

  if (!valid || run.error || (run.data && run.data.flowId === null)) {
    const notFound = !run.error || errorCodeOf(run.error) !== undefined;
    return (
      <Result
        status="info"
        title={t(notFound ? 'replay.noRun' : 'editor.loadFailed')}
        extra={<Button onClick={() => navigate(-1)}>{t('editor.back')}</Button>}
      />
    );
  }
  if (run.isLoading || document.isLoading) return <Skeleton active paragraph={{ rows: 10 }} />;

  return (
    <Flex vertical gap={8} style={{ minHeight: 'calc(100vh - 112px)' }}>
      <Space wrap>
        <Button icon={<ArrowLeftOutlined />} aria-label={t('editor.back')} onClick={() => navigate(-1)} />
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('replay.title', { ticketId })}
        </Typography.Title>
        {document.data ? (
          <Button type="link" onClick={() => navigate(`/flowbuilder/${document.data?.id}`)}>
            {document.data.name}
          </Button>
        ) : null}
      </Space>
      <Flex gap={8} wrap={!wide} style={{ flex: 1 }}>
        <div
          style={{
            flex: '1 1 480px',
            minHeight: wide ? 420 : 320,
            border: '1px solid rgba(128,128,128,0.3)',
            borderRadius: 8,
          }}
        >
          <NodeActionsContext.Provider value={actions}>
            <ReactFlow<CanvasNode, Edge>
              nodes={nodes}
              edges={edges}
              nodeTypes={NODE_TYPES}
              nodesDraggable={false}
              nodesConnectable={false}
              edgesFocusable={false}
              deleteKeyCode={null}
              onlyRenderVisibleElements
              fitView
              fitViewOptions={FIT_VIEW}
              minZoom={0.1}
            >
              <Background />
              <Controls showInteractive={false} />
              <MiniMap nodeColor={(node) => KIND_LOOK[node.type as NodeKind]?.color ?? '#999'} />
            </ReactFlow>
          </NodeActionsContext.Provider>
        </div>
        <Card size="small" title={t('replay.steps')} style={{ flex: '0 1 340px', minWidth: 280, overflow: 'auto' }}>
          <List<FlowRunStep>
            dataSource={steps}
            locale={{ emptyText: <Empty description={t('replay.noSteps')} /> }}
            renderItem={(step, index) => {
              const kind = kindOf(step.nodeId);
              const variables = Object.entries(step.variables ?? {});
              return (
                <List.Item
                  data-testid="replay-step"
                  onClick={() => show(index, step)}
                  style={{
                    cursor: 'pointer',
                    display: 'block',
                    background: index === selected ? 'rgba(250,84,28,0.08)' : undefined,
                  }}
                >
                  <Typography.Text strong>
                    {index + 1}. {kind ? t(`kinds.${kind}`) : t('replay.removedNode')}
                  </Typography.Text>{' '}
                  <Typography.Text type="secondary">{`${formatDate(step.at)} ${new Date(step.at).toLocaleTimeString()}`}</Typography.Text>
                  {variables.length ? (
                    <Descriptions
                      size="small"
                      column={1}
                      style={{ marginTop: 4 }}
                      items={variables.map(([name, value]) => ({
                        key: name,
                        label: name,
                        children: typeof value === 'string' ? value : JSON.stringify(value),
                      }))}
                    />
                  ) : (
                    <div>
                      <Typography.Text type="secondary">{t('replay.noVariables')}</Typography.Text>
                    </div>
                  )}
                </List.Item>
              );
            }}
          />
        </Card>
      </Flex>
    </Flex>
  );
}
