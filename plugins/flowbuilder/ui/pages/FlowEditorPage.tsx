import {
  ArrowLeftOutlined,
  CloseCircleOutlined,
  HistoryOutlined,
  PlusOutlined,
  RedoOutlined,
  SaveOutlined,
  UndoOutlined,
  WarningOutlined,
} from '@ant-design/icons';
import { showError, toast, useTranslation } from '@balcao/plugin-sdk/ui';
import {
  addEdge,
  Background,
  type Connection,
  Controls,
  type Edge,
  MiniMap,
  type OnBeforeDelete,
  Panel,
  ReactFlow,
  ReactFlowProvider,
  useEdgesState,
  useNodesState,
  useReactFlow,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import { Alert, Button, Drawer, Dropdown, Flex, Input, List, Result, Skeleton, Space, Tooltip, Typography } from 'antd';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useFlowDocumentQuery, useSaveFlowDocumentMutation } from '../api';
import { IntegrationsGuard } from '../components/common';
import { useLeaveGuard } from '../components/leave-guard';
import { useWideEnough } from '../components/screen';
import { blocksSaving, type FlowProblem, flowProblems } from '../flows/check';
import { documentOf, edgesOf, nodesOf } from '../flows/convert';
import {
  duplicatePlacement,
  EXTRA_KINDS,
  emptyData,
  type FlowDocument,
  type FlowNodeData,
  KINDS_WITHOUT_DIALOG,
  type NodeKind,
  newNodeId,
  placementAfter,
  questionVariables,
  SPEED_DIAL_KINDS,
  START_NODE_ID,
} from '../flows/model';
import { NodeDialog } from '../flows/NodeDialog';
import { type CanvasNode, FIT_VIEW, KIND_LOOK, NODE_TYPES, type NodeActions, NodeActionsContext } from '../flows/nodes';

/** How many changes undo goes back. */
export const UNDO_DEPTH = 50;

interface Snapshot {
  nodes: CanvasNode[];
  edges: Edge[];
}

type DialogState =
  | { open: false }
  | { open: true; mode: 'create' | 'edit'; kind: NodeKind; nodeId?: string; data?: FlowNodeData };

/** The flow editor (/flowbuilder/{id}, docs/product/automation.md#screens-and-routes). */
export function FlowEditorPage() {
  const { id } = useParams();
  const navigate = useNavigate();
  const flowId = Number(id);
  useEffect(() => {
    if (!id) navigate('/flowbuilders', { replace: true });
  }, [id, navigate]);
  if (!id) return null;
  return (
    <IntegrationsGuard>
      <ReactFlowProvider>
        <FlowEditor flowId={flowId} />
      </ReactFlowProvider>
    </IntegrationsGuard>
  );
}

const DELETE_KEYS = ['Backspace', 'Delete'];

function FlowEditor({ flowId }: { flowId: number }) {
  const { t } = useTranslation('flowbuilder');
  const navigate = useNavigate();
  const wide = useWideEnough();
  const flow = useReactFlow<CanvasNode, Edge>();
  const { data, isLoading, error } = useFlowDocumentQuery(flowId, { skip: !Number.isInteger(flowId) });
  const [save, saving] = useSaveFlowDocumentMutation();
  const [nodes, setNodes, onNodesChange] = useNodesState<CanvasNode>([]);
  const [edges, setEdges, onEdgesChange] = useEdgesState<Edge>([]);
  const [dialog, setDialog] = useState<DialogState>({ open: false });
  const [problems, setProblems] = useState<FlowProblem[] | null>(null);
  const [ticketId, setTicketId] = useState('');
  // the server's answer with the document (undefined while it loads: the node is neither offered nor flagged)
  const openaiAvailable = data?.openaiAvailable;

  // the latest state for callbacks that must stay stable (the memoised nodes get them through context)
  const current = useRef<Snapshot>({ nodes, edges });
  current.current = { nodes, edges };
  const history = useRef<{ past: Snapshot[]; future: Snapshot[] }>({ past: [], future: [] });
  const [, setHistoryVersion] = useState(0);
  const remember = useCallback(() => {
    const { past } = history.current;
    past.push(current.current);
    if (past.length > UNDO_DEPTH) past.shift();
    history.current.future = [];
    setHistoryVersion((version) => version + 1);
  }, []);
  const restore = useCallback(
    (from: 'past' | 'future') => {
      const snapshot = history.current[from].pop();
      if (!snapshot) return;
      history.current[from === 'past' ? 'future' : 'past'].push(current.current);
      setNodes(snapshot.nodes);
      setEdges(snapshot.edges);
      setHistoryVersion((version) => version + 1);
    },
    [setNodes, setEdges],
  );

  // the document is taken once: a refetch (the socket coming back) must never replace unsaved work
  const loadedFor = useRef<number | null>(null);
  // the document as last loaded or saved; compared only when the user is about to leave, never per frame
  const saved = useRef<string | null>(null);
  useEffect(() => {
    if (!data || loadedFor.current === data.id) return;
    loadedFor.current = data.id;
    const loaded = nodesOf(data.flow?.nodes ?? []);
    const startingNodes: CanvasNode[] = loaded.length
      ? loaded
      : [{ id: START_NODE_ID, type: 'start', position: { x: 100, y: 100 }, data: { ...emptyData('start') } }];
    setNodes(startingNodes);
    const loadedEdges = edgesOf(data.flow?.connections ?? []);
    setEdges(loadedEdges);
    history.current = { past: [], future: [] };
    // what the canvas holds now is what is stored (a new flow's start node included: nothing to lose yet)
    saved.current = JSON.stringify(documentOf(startingNodes, loadedEdges));
  }, [data, setNodes, setEdges]);

  const hasChanges = useCallback(
    () => saved.current !== null && JSON.stringify(documentOf(current.current.nodes, current.current.edges)) !== saved.current,
    [],
  );
  const leaveGuard = useLeaveGuard(hasChanges, {
    title: t('leave.title'),
    content: t('leave.content'),
    okText: t('leave.ok'),
    cancelText: t('leave.cancel'),
  });

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || (event.target as HTMLElement | null)?.closest('input, textarea')) return;
      const key = event.key.toLowerCase();
      if (key === 'z' && !event.shiftKey) restore('past');
      else if (key === 'y' || (key === 'z' && event.shiftKey)) restore('future');
      else return;
      event.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [restore]);

  const variables = useMemo(() => questionVariables(nodes), [nodes]);

  const addNode = useCallback(
    (kind: NodeKind, nodeData: FlowNodeData) => {
      remember();
      const all = current.current.nodes;
      const node: CanvasNode = {
        id: newNodeId(),
        type: kind,
        position: placementAfter(all[all.length - 1]),
        data: nodeData as CanvasNode['data'],
      };
      setNodes([...all.map((item) => (item.selected ? { ...item, selected: false } : item)), node]);
    },
    [remember, setNodes],
  );

  const actions = useMemo<NodeActions>(
    () => ({
      readOnly: false,
      openaiAvailable,
      duplicate(id) {
        const all = current.current.nodes;
        const original = all.find((node) => node.id === id);
        if (!original) return;
        remember();
        const copy: CanvasNode = {
          id: newNodeId(),
          type: original.type,
          position: duplicatePlacement(all, original),
          data: structuredClone(original.data),
          selected: false,
        };
        setNodes([...all, copy]);
      },
      remove(id) {
        remember();
        setNodes(current.current.nodes.filter((node) => node.id !== id));
        setEdges(current.current.edges.filter((edge) => edge.source !== id && edge.target !== id));
      },
    }),
    [remember, setNodes, setEdges, openaiAvailable],
  );

  const onConnect = useCallback(
    (connection: Connection) => {
      remember();
      setEdges(addEdge({ ...connection, id: `reactflow__edge-${newNodeId(12)}` }, current.current.edges));
    },
    [remember, setEdges],
  );
  const onBeforeDelete = useCallback<OnBeforeDelete<CanvasNode, Edge>>(
    async ({ nodes: leaving }) => {
      // the start node stays: a flow without it could never begin
      if (leaving.some((node) => node.type === 'start')) return false;
      remember();
      return true;
    },
    [remember],
  );
  const onNodeDoubleClick = useCallback((_event: unknown, node: CanvasNode) => {
    if (KINDS_WITHOUT_DIALOG.includes(node.type as NodeKind)) return;
    setDialog({ open: true, mode: 'edit', kind: node.type as NodeKind, nodeId: node.id, data: node.data });
  }, []);

  const focusNode = useCallback(
    (nodeId: string) => {
      const node = current.current.nodes.find((item) => item.id === nodeId);
      if (!node) return;
      setNodes(current.current.nodes.map((item) => ({ ...item, selected: item.id === nodeId })));
      const width = node.measured?.width ?? 220;
      const height = node.measured?.height ?? 80;
      void flow.setCenter(node.position.x + width / 2, node.position.y + height / 2, { zoom: 1.2, duration: 300 });
    },
    [flow, setNodes],
  );

  const store = async (document: FlowDocument) => {
    try {
      await save({ idFlow: flowId, ...document }).unwrap();
      saved.current = JSON.stringify(document);
      toast.success(t('editor.saved'));
      setProblems(null);
    } catch (failure) {
      showError(failure);
      // the server names the node it refused: show it
      const nodeId = (failure as { data?: { nodeId?: unknown } }).data?.nodeId;
      if (typeof nodeId === 'string') focusNode(nodeId);
    }
  };
  const onSave = () => {
    const document = documentOf(nodes, edges);
    const found = flowProblems(document, openaiAvailable);
    if (found.length) setProblems(found);
    else void store(document);
  };

  // an id that is no number names no flow: the query never runs, so say so rather than load forever
  const missing = !Number.isInteger(flowId) || flowId <= 0 || (error !== undefined && 'status' in error && error.status === 404);
  if (missing) return <Result status="404" title={t('editor.notFound')} />;
  if (error) return <Result status="warning" title={t('editor.loadFailed')} />;
  if (isLoading || !data) return <Skeleton active paragraph={{ rows: 10 }} />;
  const undoCount = history.current.past.length;
  const redoCount = history.current.future.length;
  const addItem = (kind: NodeKind) => {
    const Icon = KIND_LOOK[kind].icon;
    // a flow has one start: the shared check refuses a second
    const disabled = kind === 'start' && nodes.some((node) => node.type === 'start');
    return { key: kind, icon: <Icon />, label: t(`addMenu.${kind}`), disabled };
  };
  // the openai node is offered only where it can be saved and run (the plan's useOpenAi and the AI plugin)
  const addItems = [
    ...SPEED_DIAL_KINDS.filter((kind) => kind !== 'openai' || openaiAvailable === true).map(addItem),
    { type: 'divider' as const },
    ...EXTRA_KINDS.map(addItem),
  ];

  return (
    <Flex vertical style={{ height: 'calc(100vh - 112px)', minHeight: 420 }} gap={8}>
      {leaveGuard}
      {wide ? null : <Alert type="warning" showIcon title={t('editor.largerScreen')} />}
      <Flex wrap gap={8} align="center" justify="space-between">
        <Space wrap>
          <Button icon={<ArrowLeftOutlined />} aria-label={t('editor.back')} onClick={() => navigate('/flowbuilders')} />
          <Typography.Title level={4} style={{ margin: 0 }}>
            {t('editor.title')}
          </Typography.Title>
          <Typography.Text type="secondary">{data.name}</Typography.Text>
        </Space>
        <Space wrap>
          <Input.Search
            value={ticketId}
            onChange={(event) => setTicketId(event.target.value.replace(/\D/g, ''))}
            placeholder={t('replay.ticketId')}
            aria-label={t('replay.ticketId')}
            enterButton={<HistoryOutlined />}
            style={{ width: 200 }}
            onSearch={(value) => value && navigate(`/flowbuilder/runs/${value}`)}
          />
          <Tooltip title={t('editor.undo')}>
            <Button
              icon={<UndoOutlined />}
              aria-label={t('editor.undo')}
              disabled={undoCount === 0}
              onClick={() => restore('past')}
            />
          </Tooltip>
          <Tooltip title={t('editor.redo')}>
            <Button
              icon={<RedoOutlined />}
              aria-label={t('editor.redo')}
              disabled={redoCount === 0}
              onClick={() => restore('future')}
            />
          </Tooltip>
          <Typography.Text type="secondary">{t('editor.reminder')}</Typography.Text>
          <Button type="primary" icon={<SaveOutlined />} loading={saving.isLoading} onClick={onSave}>
            {t('actions.save')}
          </Button>
        </Space>
      </Flex>
      <div style={{ flex: 1, minHeight: 320, border: '1px solid rgba(128,128,128,0.3)', borderRadius: 8 }}>
        <NodeActionsContext.Provider value={actions}>
          <ReactFlow<CanvasNode, Edge>
            nodes={nodes}
            edges={edges}
            nodeTypes={NODE_TYPES}
            onNodesChange={onNodesChange}
            onEdgesChange={onEdgesChange}
            onConnect={onConnect}
            onBeforeDelete={onBeforeDelete}
            onNodeDragStart={remember}
            onNodeDoubleClick={onNodeDoubleClick}
            deleteKeyCode={DELETE_KEYS}
            zoomOnDoubleClick={false}
            onlyRenderVisibleElements
            fitView
            fitViewOptions={FIT_VIEW}
            minZoom={0.1}
          >
            <Panel position="top-left">
              <Dropdown menu={{ items: addItems, onClick: ({ key }) => onAdd(key as NodeKind) }} trigger={['click']}>
                <Button type="primary" shape="circle" size="large" icon={<PlusOutlined />} aria-label={t('editor.add')} />
              </Dropdown>
            </Panel>
            <Background />
            <Controls />
            <MiniMap pannable zoomable nodeColor={(node) => KIND_LOOK[node.type as NodeKind]?.color ?? '#999'} />
          </ReactFlow>
        </NodeActionsContext.Provider>
      </div>
      {dialog.open ? (
        <NodeDialog
          open
          mode={dialog.mode}
          kind={dialog.kind}
          data={dialog.data}
          variables={variables}
          openaiAvailable={openaiAvailable}
          onCancel={() => setDialog({ open: false })}
          onSave={(nodeData) => {
            if (dialog.mode === 'create') addNode(dialog.kind, nodeData);
            else {
              remember();
              setNodes(
                current.current.nodes.map((node) =>
                  node.id === dialog.nodeId ? { ...node, data: nodeData as CanvasNode['data'] } : node,
                ),
              );
            }
            setDialog({ open: false });
          }}
        />
      ) : null}
      <Drawer
        open={problems !== null}
        onClose={() => setProblems(null)}
        title={
          <Space>
            <WarningOutlined style={{ color: '#faad14' }} />
            {t('check.title', { count: problems?.length ?? 0 })}
          </Space>
        }
        size={360}
        mask={false}
        extra={
          <Button
            danger
            loading={saving.isLoading}
            disabled={problems === null || blocksSaving(problems)}
            onClick={() => void store(documentOf(nodes, edges))}
          >
            {t('check.saveAnyway')}
          </Button>
        }
      >
        <Typography.Paragraph type="secondary">
          {t(problems && blocksSaving(problems) ? 'check.errors' : 'check.warnings')}
        </Typography.Paragraph>
        <List<FlowProblem>
          dataSource={problems ?? []}
          renderItem={(problem) => {
            const node = problem.nodeId === null ? undefined : nodes.find((item) => item.id === problem.nodeId);
            const error = problem.severity === 'error';
            return (
              <List.Item
                style={{ cursor: node ? 'pointer' : undefined }}
                onClick={() => node && focusNode(node.id)}
                data-testid="flow-problem"
              >
                <List.Item.Meta
                  avatar={
                    error ? (
                      <CloseCircleOutlined style={{ color: '#ff4d4f' }} aria-label={t('check.error')} />
                    ) : (
                      <WarningOutlined style={{ color: '#faad14' }} aria-label={t('check.warning')} />
                    )
                  }
                  title={node ? t(`kinds.${node.type}`) : t('check.wholeFlow')}
                  description={t(problem.message, { detail: problem.detail ?? '', defaultValue: problem.code })}
                />
              </List.Item>
            );
          }}
        />
      </Drawer>
    </Flex>
  );

  function onAdd(kind: NodeKind) {
    if (KINDS_WITHOUT_DIALOG.includes(kind)) addNode(kind, emptyData(kind));
    else setDialog({ open: true, mode: 'create', kind });
  }
}
