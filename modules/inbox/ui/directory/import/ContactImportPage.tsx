import { ArrowLeftOutlined, InboxOutlined, UploadOutlined } from '@ant-design/icons';
import { errorMessage, useTranslation } from '@balcao/plugin-sdk/ui';
import {
  Alert,
  Button,
  Card,
  Checkbox,
  Descriptions,
  Flex,
  Progress,
  Result,
  Select,
  Space,
  Spin,
  Statistic,
  Table,
  Typography,
  Upload,
} from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { IMPORT_CHUNK_SIZE, useImportContactsMutation } from '../api/contacts';
import {
  type ColumnMapping,
  cellText,
  chunk,
  columnCount,
  columnLetter,
  detectColumns,
  IMPORT_FIELDS,
  type ImportCandidate,
  type ImportField,
  lineOfServerRow,
  normalizeRows,
  type RawCell,
} from './columns';
import { IMPORT_ACCEPT, importFileKind, readImportFile } from './read-file';

/** Rows shown in the preview. */
const PREVIEW_ROWS = 10;

interface Sheet {
  fileName: string;
  rows: RawCell[][];
}

/** One line of the final report that did not import. */
interface ReportError {
  line: number | null;
  message: string;
}

interface ImportReport {
  created: number;
  skipped: number;
  errors: ReportError[];
  /** The import stopped before the last chunk (a failed call). */
  interrupted: boolean;
}

/** Contacts import (/contacts/import): pick an .xlsx or .csv, map columns, preview, import in chunks. */
export function ContactImportPage() {
  const { t } = useTranslation('inbox');
  const navigate = useNavigate();
  const [sheet, setSheet] = useState<Sheet | null>(null);
  const [reading, setReading] = useState(false);
  const [readError, setReadError] = useState<string | null>(null);
  const [header, setHeader] = useState(true);
  const [mapping, setMapping] = useState<ColumnMapping>({ name: null, number: null, email: null });
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const [report, setReport] = useState<ImportReport | null>(null);
  const [importContacts] = useImportContactsMutation();
  const alive = useRef(true);

  useEffect(() => {
    alive.current = true;
    return () => {
      alive.current = false;
    };
  }, []);

  const normalized = useMemo(() => (sheet ? normalizeRows(sheet.rows, mapping, header) : null), [sheet, mapping, header]);
  const width = sheet ? columnCount(sheet.rows) : 0;

  const pick = async (file: File) => {
    setReadError(null);
    setReport(null);
    if (!importFileKind(file.name)) {
      setReadError(t('contactImport.wrongType'));
      return;
    }
    setReading(true);
    try {
      const rows = await readImportFile(file);
      if (!alive.current) return;
      if (rows.length === 0) {
        setReadError(t('contactImport.emptyFile'));
        return;
      }
      const detected = detectColumns(rows[0] ?? []);
      setHeader(detected.header);
      setMapping(detected.mapping);
      setSheet({ fileName: file.name, rows });
    } catch {
      if (alive.current) setReadError(t('contactImport.unreadable'));
    } finally {
      if (alive.current) setReading(false);
    }
  };

  const reset = () => {
    setSheet(null);
    setReport(null);
    setProgress(null);
    setReadError(null);
  };

  const runImport = async () => {
    if (!normalized) return;
    const parts = chunk(normalized.candidates, IMPORT_CHUNK_SIZE);
    const result: ImportReport = {
      created: 0,
      skipped: 0,
      errors: normalized.errors.map(({ line, issue }) => ({ line, message: t(`contactImport.issues.${issue}`) })),
      interrupted: false,
    };
    let done = 0;
    setProgress({ done, total: normalized.candidates.length });
    for (const part of parts) {
      try {
        const answer = await importContacts({ contacts: part.map((candidate) => candidate.contact) }).unwrap();
        result.created += answer.created;
        result.skipped += answer.skipped;
        for (const failure of answer.errors) {
          result.errors.push({ line: lineOfServerRow(part, failure.row), message: errorMessage(failure.error) });
        }
      } catch (failure) {
        // the whole call failed: report the chunk's lines once and stop
        const first = part[0]?.line ?? null;
        const last = part[part.length - 1]?.line ?? null;
        result.errors.push({
          line: first,
          message: t('contactImport.chunkFailed', { from: first, to: last, error: errorMessage(failure) }),
        });
        result.interrupted = true;
        break;
      }
      done += part.length;
      if (!alive.current) return;
      setProgress({ done, total: normalized.candidates.length });
    }
    if (!alive.current) return;
    result.errors.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
    setReport(result);
    setProgress(null);
  };

  const setColumn = (field: ImportField, column: number | null) => setMapping((current) => ({ ...current, [field]: column }));

  const columnOptions = Array.from({ length: width }, (_unused, index) => {
    const title = header ? cellText(sheet?.rows[0]?.[index]) : '';
    return { value: index, label: title ? `${columnLetter(index)} — ${title}` : columnLetter(index) };
  });

  const back = (
    <Button icon={<ArrowLeftOutlined />} onClick={() => navigate('/contacts')}>
      {t('contactImport.back')}
    </Button>
  );

  if (report) {
    return (
      <Card>
        <Result
          status={report.interrupted ? 'warning' : report.errors.length > 0 ? 'info' : 'success'}
          title={t(report.interrupted ? 'contactImport.result.interrupted' : 'contactImport.result.title')}
          extra={
            <Space wrap>
              {back}
              <Button type="primary" icon={<UploadOutlined />} onClick={reset}>
                {t('contactImport.another')}
              </Button>
            </Space>
          }
        >
          <Flex wrap gap={32} justify="center" style={{ marginBottom: 16 }}>
            <Statistic title={t('contactImport.result.created')} value={report.created} />
            <Statistic title={t('contactImport.result.skipped')} value={report.skipped} />
            <Statistic title={t('contactImport.result.errors')} value={report.errors.length} />
          </Flex>
          {report.errors.length > 0 ? (
            <Table<ReportError & { key: number }>
              size="small"
              rowKey="key"
              dataSource={report.errors.map((error, key) => ({ ...error, key }))}
              pagination={{ pageSize: 20, hideOnSinglePage: true, showSizeChanger: false }}
              scroll={{ x: 'max-content' }}
              columns={[
                {
                  key: 'line',
                  title: t('contactImport.line'),
                  dataIndex: 'line',
                  width: 90,
                  render: (line: number | null) => line ?? '—',
                },
                { key: 'message', title: t('contactImport.error'), dataIndex: 'message' },
              ]}
            />
          ) : null}
        </Result>
      </Card>
    );
  }

  return (
    <Card>
      <Flex wrap gap={8} align="center" justify="space-between" style={{ marginBottom: 16 }}>
        <Typography.Title level={4} style={{ margin: 0 }}>
          {t('contactImport.title')}
        </Typography.Title>
        {back}
      </Flex>

      {!sheet ? (
        <Spin spinning={reading}>
          <Typography.Paragraph type="secondary">{t('contactImport.instructions')}</Typography.Paragraph>
          <Upload.Dragger
            accept={IMPORT_ACCEPT}
            multiple={false}
            showUploadList={false}
            beforeUpload={(file) => {
              void pick(file);
              return Upload.LIST_IGNORE;
            }}
          >
            <p className="ant-upload-drag-icon">
              <InboxOutlined />
            </p>
            <p className="ant-upload-text">{t('contactImport.pick')}</p>
            <p className="ant-upload-hint">{t('contactImport.pickHint')}</p>
          </Upload.Dragger>
          {readError ? <Alert type="error" showIcon title={readError} style={{ marginTop: 16 }} /> : null}
        </Spin>
      ) : (
        <Space orientation="vertical" size={16} style={{ width: '100%' }}>
          <Descriptions
            size="small"
            column={{ xs: 1, sm: 2, md: 3 }}
            items={[
              { key: 'file', label: t('contactImport.file'), children: sheet.fileName },
              { key: 'ready', label: t('contactImport.ready'), children: normalized?.candidates.length ?? 0 },
              { key: 'invalid', label: t('contactImport.invalid'), children: normalized?.errors.length ?? 0 },
            ]}
          />
          <Checkbox checked={header} onChange={(event) => setHeader(event.target.checked)} disabled={progress !== null}>
            {t('contactImport.firstRowHeader')}
          </Checkbox>
          <Flex wrap gap={12}>
            {IMPORT_FIELDS.map((field) => (
              <div key={field} style={{ flex: '1 1 180px' }}>
                <Typography.Text strong>
                  {t(`contactImport.fields.${field}`)}
                  {field === 'number' ? ' *' : ''}
                </Typography.Text>
                <Select<number>
                  allowClear
                  style={{ width: '100%', marginTop: 4 }}
                  value={mapping[field] ?? undefined}
                  placeholder={t('contactImport.noColumn')}
                  options={columnOptions}
                  disabled={progress !== null}
                  onChange={(value) => setColumn(field, value ?? null)}
                  aria-label={t(`contactImport.fields.${field}`)}
                />
              </div>
            ))}
          </Flex>
          {mapping.number === null ? <Alert type="warning" showIcon title={t('contactImport.numberRequired')} /> : null}

          <Typography.Text strong>
            {t('contactImport.preview', { count: Math.min(PREVIEW_ROWS, normalized?.candidates.length ?? 0) })}
          </Typography.Text>
          <Table<ImportCandidate>
            size="small"
            rowKey="line"
            pagination={false}
            scroll={{ x: 'max-content' }}
            dataSource={normalized?.candidates.slice(0, PREVIEW_ROWS) ?? []}
            locale={{ emptyText: t('contactImport.nothingToImport') }}
            columns={[
              { key: 'line', title: t('contactImport.line'), dataIndex: 'line', width: 80 },
              { key: 'name', title: t('contactImport.fields.name'), render: (_value, row) => row.contact.name },
              { key: 'number', title: t('contactImport.fields.number'), render: (_value, row) => row.contact.number },
              { key: 'email', title: t('contactImport.fields.email'), render: (_value, row) => row.contact.email ?? '—' },
            ]}
          />

          {progress ? (
            <div>
              <Typography.Text>{t('contactImport.importing', { done: progress.done, total: progress.total })}</Typography.Text>
              <Progress percent={progress.total ? Math.floor((progress.done / progress.total) * 100) : 0} status="active" />
            </div>
          ) : null}

          <Flex wrap gap={8} justify="end">
            <Button onClick={reset} disabled={progress !== null}>
              {t('contactImport.otherFile')}
            </Button>
            <Button
              type="primary"
              icon={<UploadOutlined />}
              loading={progress !== null}
              disabled={!normalized || normalized.candidates.length === 0 || mapping.number === null}
              onClick={() => void runImport()}
            >
              {t('contactImport.start', { count: normalized?.candidates.length ?? 0 })}
            </Button>
          </Flex>
        </Space>
      )}
    </Card>
  );
}
